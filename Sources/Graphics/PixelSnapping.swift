// Where a fractional position lands on whole pixels. Every edge the canvas snaps (fills, clips,
// 1:1 copies, a scaled picture's sampling anchor) goes through here, so the same place snaps
// alike however it was computed.

extension Double {
    /// The nearest whole pixel coordinate, halves going up. The tie sits a hair (1e-7 px) below
    /// the half: a layout's exact halves (a photo centred with an odd margin) reached through
    /// different sums (drawn in place, or scrolled and copied) differ by floating-point noise
    /// far smaller than that, and so snap to the same pixel every time.
    public var snappedToPixel: Double { (self + 0.5 + 1e-7).rounded(.down) }
}

extension PixelRect {
    /// The pixels whose centres lie inside `rect` (edges snapped to the nearest pixel), so
    /// adjacent rectangles tile without gaps or overlaps.
    public init(snapping rect: Rect) {
        let x0 = Int(rect.minX.snappedToPixel), y0 = Int(rect.minY.snappedToPixel)
        let x1 = Int(rect.maxX.snappedToPixel), y1 = Int(rect.maxY.snappedToPixel)
        self.init(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}
