import Graphics

/// Exact-size resizing through pixman (Graphics.Canvas).
enum Resampler {
    /// `bitmap` scaled to `width`x`height` (aspect is the caller's business).
    ///
    /// pixman's bilinear filter reads 2x2 source pixels per output pixel, so shrinking by more
    /// than 2x skips pixels and aliases; bigger shrinks go through halvings first (bilinear at
    /// exactly 1/2 averages each 2x2 block, a box filter).
    static func resize(_ bitmap: Bitmap, width: Int, height: Int) -> Bitmap {
        var current = bitmap
        while current.width > 2 * width || current.height > 2 * height {
            let w = max(width, (current.width + 1) / 2)
            let h = max(height, (current.height + 1) / 2)
            current = draw(current, width: w, height: h)
        }
        if current.width == width && current.height == height { return current }
        return draw(current, width: width, height: height)
    }

    private static func draw(_ source: Bitmap, width: Int, height: Int) -> Bitmap {
        let target = Bitmap(width: width, height: height, format: source.format)
        Canvas(target: target).draw(source, in: Rect(x: 0, y: 0, width: width, height: height), quality: .bilinear)
        return target
    }
}
