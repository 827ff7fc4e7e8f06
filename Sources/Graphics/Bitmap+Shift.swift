import Glibc

// Scrolling by copy: a window moves the pixels it already drew instead of drawing them again.

extension Bitmap {
    /// Moves the pixels inside `rect` by (`dx`, `dy`) within `rect`: what would leave `rect` is
    /// dropped, and the strip the move uncovers keeps its old pixels (the caller redraws it).
    /// Source and destination overlap, so rows are visited away from the direction of travel and
    /// each row is moved with memmove.
    public func shiftPixels(in rect: PixelRect, dx: Int, dy: Int) {
        let area = rect.intersection(bounds)
        let destination = area.intersection(area.offsetBy(dx: dx, dy: dy))
        guard !destination.isEmpty, dx != 0 || dy != 0 else { return }
        let bytesPerPixel = format.bytesPerPixel
        let rowBytes = destination.width * bytesPerPixel
        let rows = dy > 0 ? Array((destination.y..<destination.maxY).reversed()) : Array(destination.y..<destination.maxY)
        for y in rows {
            let to = row(y) + destination.x * bytesPerPixel
            let from = row(y - dy) + (destination.x - dx) * bytesPerPixel
            memmove(to, from, rowBytes)
        }
    }
}

extension PixelRect {
    /// The same rectangle moved by whole pixels.
    public func offsetBy(dx: Int, dy: Int) -> PixelRect {
        PixelRect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// The parts of this rectangle outside `other`: at most four rectangles (full-width bands
    /// above and below, then the pieces left and right of `other` between them).
    public func subtracting(_ other: PixelRect) -> [PixelRect] {
        let cut = intersection(other)
        guard !cut.isEmpty else { return isEmpty ? [] : [self] }
        let parts = [
            PixelRect(x: x, y: y, width: width, height: cut.y - y),
            PixelRect(x: x, y: cut.maxY, width: width, height: maxY - cut.maxY),
            PixelRect(x: x, y: cut.y, width: cut.x - x, height: cut.height),
            PixelRect(x: cut.maxX, y: cut.y, width: maxX - cut.maxX, height: cut.height),
        ]
        return parts.filter { !$0.isEmpty }
    }
}
