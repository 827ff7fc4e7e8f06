import Graphics

/// A decoded picture, already oriented for display.
public struct DecodedImage: Sendable {
    /// XRGB8888 pixels at the requested size (or full size), oriented.
    public var bitmap: Bitmap
    /// The image's full-resolution size as displayed (oriented), whatever size was decoded.
    public var originalSize: Size
    /// The data was damaged or ended early; missing parts are filled (grey for JPEG, black for
    /// PNG). Never set in strict mode, which throws instead.
    public var isPartial: Bool
    /// The decoder's first warning when `isPartial` ("Premature end of JPEG file").
    public var warning: String?
    /// What the header said, minus the EXIF thumbnail's bytes (decoded images sit in caches
    /// that count only bitmap bytes); `ImageDecoder.probe` returns them.
    public var info: ImageInfo
    /// The DCT scale a JPEG was decoded at before the final resize (`.full` for PNG).
    public var dctScale: DCTScale
    /// Working memory the decode held for coefficients: a progressive JPEG's whole-image
    /// buffers, or the most its packed store held at once (0 for single-scan files and PNG).
    public var coefficientBytes = 0

    public init(bitmap: Bitmap, originalSize: Size, isPartial: Bool, warning: String? = nil, info: ImageInfo,
                dctScale: DCTScale = .full) {
        self.bitmap = bitmap
        self.originalSize = originalSize
        self.isPartial = isPartial
        self.warning = warning
        self.info = info
        self.dctScale = dctScale
    }
}
