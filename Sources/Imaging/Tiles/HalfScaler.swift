import Graphics

/// Halves rows of XRGB pixels with a 2x2 box filter (each output pixel is the rounded mean of
/// four): how each pyramid level is made from the one above. An odd last column or row is
/// averaged with itself. Two channels are summed per 32-bit lane step, so this is plain integer
/// work with no per-channel loop.
enum HalfScaler {
    /// Writes ceil(width/2) x ceil(rows/2) pixels into `destination` from the first `rows` rows
    /// and `width` columns of `source`.
    static func halve(_ source: Bitmap, width: Int, rows: Int, into destination: Bitmap) {
        let halfWidth = (width + 1) / 2, halfRows = (rows + 1) / 2
        precondition(destination.width >= halfWidth && destination.height >= halfRows, "destination too small")
        for y in 0..<halfRows {
            let top = source.row(2 * y).assumingMemoryBound(to: UInt32.self)
            let bottom = source.row(min(2 * y + 1, rows - 1)).assumingMemoryBound(to: UInt32.self)
            let out = destination.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<halfWidth {
                let x0 = 2 * x, x1 = min(2 * x + 1, width - 1)
                let a = top[x0], b = top[x1], c = bottom[x0], d = bottom[x1]
                let redBlue = ((a & 0xFF00FF) &+ (b & 0xFF00FF) &+ (c & 0xFF00FF) &+ (d & 0xFF00FF) &+ 0x20002) >> 2 & 0xFF00FF
                let green = (((a >> 8) & 0xFF) &+ ((b >> 8) & 0xFF) &+ ((c >> 8) & 0xFF) &+ ((d >> 8) & 0xFF) &+ 2) >> 2
                out[x] = 0xFF00_0000 | redBlue | green << 8
            }
        }
    }
}
