// What is left of a rectangle once another is taken out: damage that a scroll copy moves, the
// strip it uncovers, a background drawn only where an opaque view does not cover it.

extension PixelRect {
    /// The same rectangle moved by whole pixels.
    public func offsetBy(dx: Int, dy: Int) -> PixelRect {
        PixelRect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// The parts of this rectangle outside `other`, split as `Rect.subtracting` does.
    public func subtracting(_ other: PixelRect) -> [PixelRect] {
        // Whole numbers stay exact as Doubles, so the split is the same in pixels.
        rect.subtracting(other.rect).map {
            PixelRect(x: Int($0.minX), y: Int($0.minY), width: Int($0.width), height: Int($0.height))
        }
    }
}

extension Rect {
    /// The parts of this rectangle outside `other`: at most four rectangles (full-width bands
    /// above and below, then the pieces left and right of `other` between them).
    public func subtracting(_ other: Rect) -> [Rect] {
        let cut = intersection(other)
        guard !cut.isEmpty else { return isEmpty ? [] : [self] }
        let parts = [
            Rect(x: minX, y: minY, width: width, height: cut.minY - minY),
            Rect(x: minX, y: cut.maxY, width: width, height: maxY - cut.maxY),
            Rect(x: minX, y: cut.minY, width: cut.minX - minX, height: cut.height),
            Rect(x: cut.maxX, y: cut.minY, width: maxX - cut.maxX, height: cut.height),
        ]
        return parts.filter { !$0.isEmpty }
    }
}
