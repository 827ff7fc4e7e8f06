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
