import Basics
import Graphics
/// The pixel-count limit, checked from the header before any pixel memory is allocated.
enum PixelLimit {
    static func check(width: Int, height: Int, format: ImageFormat, options: DecodeOptions) throws(ImagingError) {
        let pixels = width.multipliedReportingOverflow(by: height)
        guard pixels.overflow || pixels.partialValue > options.maxPixels else { return }
        throw ImagingError(.tooLarge, "\(format) is \(width)x\(height) pixels (\(megapixels(pixels.partialValue))), "
                           + "more than the limit of \(megapixels(options.maxPixels))")
    }

    /// "12.0 megapixels".
    static func megapixels(_ pixels: Int) -> String {
        decimalText(Double(pixels) / 1_000_000, places: 1) + " megapixels"
    }
}
