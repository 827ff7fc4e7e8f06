import Graphics

/// Resizes an image that arrives a band of rows at a time (a JPEG's scanlines) straight to its
/// target size, so the decoded full-size image is never held in memory.
///
/// Why: a screen-size decode used to fill a DCT-scaled bitmap (18 MB for a 5640x3172 photo at
/// 1/2) only to shrink it once. Fresh pages of that buffer cost a page fault each, which is
/// most of what the app spent beyond libjpeg-turbo's own `djpeg`; a band of ~70 rows is reused.
///
/// The output is the same, byte for byte, as `Resampler.resize` for a single bilinear pass:
/// each band is composited with the same transform shifted by a whole number of rows, and holds
/// every row pixman's bilinear filter reads for the destination rows drawn from it.
enum BandedResizer {
    /// Destination rows composited per band.
    static let destinationRowsPerBand = 32

    /// Whether `resize` gives the same picture as `Resampler.resize`: one bilinear pass, which
    /// the resampler uses when neither side shrinks by more than 2x.
    static func isSinglePass(from source: (width: Int, height: Int), to target: (width: Int, height: Int)) -> Bool {
        target.width > 0 && target.height > 0 && source.width > 0 && source.height > 0
            && source.width <= 2 * target.width && source.height <= 2 * target.height
    }

    /// Reads every row of `source` (4 bytes per pixel) and returns it scaled to `width`x`height`.
    /// `prepareRows` runs on each run of new rows before they are used (CMYK conversion).
    static func resize<Source: RowSource>(_ source: inout Source, width: Int, height: Int,
                                          prepareRows: (Bitmap) -> Void = { _ in }) throws(ImagingError) -> Bitmap {
        let sourceHeight = source.height
        let scaleY = Double(sourceHeight) / Double(height)
        let target = Bitmap(width: width, height: height)
        let canvas = Canvas(target: target)
        // Enough rows for one destination band plus the filter's neighbours and rounding slack.
        let capacity = Int((Double(destinationRowsPerBand) * scaleY).rounded(.up)) + 8
        let band = Bitmap(width: source.width, height: capacity)
        var first = 0      // image row held in band row 0
        var held = 0       // rows held
        var sourceEnded = false

        var y0 = 0
        while y0 < height {
            let y1 = min(height, y0 + destinationRowsPerBand)
            let needed = rows(for: y0..<y1, scaleY: scaleY, sourceHeight: sourceHeight)
            // Drop rows above the band, then read until its last row is held.
            let drop = min(held, max(0, needed.lowerBound - first))
            if drop > 0 {
                if drop < held { band.pixels.copyMemory(from: band.row(drop), byteCount: (held - drop) * band.stride) }
                first += drop
                held -= drop
            }
            // Rows no band needs (a shrink by more than 2x skips some): read and dropped.
            while !sourceEnded && held == 0 && first < needed.lowerBound {
                let skip = Bitmap(wrapping: band.pixels, width: source.width, height: min(capacity, needed.lowerBound - first), stride: band.stride)
                let count = try source.readRows(into: skip)
                if count == 0 { sourceEnded = true }
                first += count
            }
            while !sourceEnded && first + held < needed.upperBound {
                precondition(held < capacity, "band too small for the rows one destination band reads")
                let free = Bitmap(wrapping: band.row(held), width: source.width,
                                  height: min(capacity - held, sourceHeight - first - held), stride: band.stride)
                let count = try source.readRows(into: free)
                if count == 0 { sourceEnded = true; break }
                prepareRows(Bitmap(wrapping: free.pixels, width: source.width, height: count, stride: band.stride))
                held += count
            }
            if held > 0 {
                let rows = Bitmap(wrapping: band.pixels, width: source.width, height: held, stride: band.stride)
                canvas.withSavedState {
                    canvas.clip(toDevice: PixelRect(x: 0, y: y0, width: width, height: y1 - y0))
                    // The whole image, placed so that band row 0 is image row `first`.
                    canvas.draw(rows, from: Rect(x: 0, y: Double(-first), width: Double(source.width), height: Double(sourceHeight)),
                                in: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), quality: .bilinear)
                }
            }
            y0 = y1
        }
        // The last rows too, so a decoder sees the whole image (and reports damage in it).
        while !sourceEnded {
            if try source.readRows(into: band) == 0 { sourceEnded = true }
        }
        return target
    }

    /// Image rows the bilinear filter may read for destination rows `range`: sample centre
    /// (y + 0.5)·scale − 0.5 and the row below it, widened by one row each way for pixman's
    /// 16.16 fixed-point rounding.
    static func rows(for range: Range<Int>, scaleY: Double, sourceHeight: Int) -> Range<Int> {
        func centre(_ y: Int) -> Int { Int(((Double(y) + 0.5) * scaleY - 0.5).rounded(.down)) }
        let low = max(0, centre(range.lowerBound) - 1)
        let high = min(sourceHeight, centre(range.upperBound - 1) + 3)
        return low..<max(low, high)
    }
}
