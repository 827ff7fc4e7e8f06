/// The pixel-count limit, checked from the header before any pixel memory is allocated.
enum PixelLimit {
    static func check(width: Int, height: Int, format: ImageFormat, options: DecodeOptions) throws(ImagingError) {
        let pixels = width.multipliedReportingOverflow(by: height)
        guard pixels.overflow || pixels.partialValue > options.maxPixels else { return }
        throw ImagingError(.tooLarge, "\(format) is \(width)x\(height) pixels (\(megapixels(pixels.partialValue))), "
                           + "more than the limit of \(megapixels(options.maxPixels))")
    }

    /// "12.0 megapixels", one decimal, without Foundation.
    static func megapixels(_ pixels: Int) -> String {
        let tenths = (pixels + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) megapixels"
    }
}
