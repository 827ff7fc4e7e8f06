import Graphics

/// How colour is stored in the file.
public enum ImageColorSpace: Hashable, Sendable {
    case grayscale
    /// YCbCr or RGB JPEG, RGB PNG.
    case rgb
    /// Four-component JPEG (Adobe files store it inverted).
    case cmyk
    /// CMYK transformed like YCbCr (Adobe transform 2).
    case ycck
    /// Palette PNG.
    case indexed
}

/// What a header says about an image, read without decoding pixels.
public struct ImageInfo: Hashable, Sendable {
    public var format: ImageFormat
    /// Stored (sensor) size, before orientation.
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// `.up` for PNG and for JPEGs without an orientation tag.
    public var orientation: ExifOrientation
    /// Progressive JPEG or Adam7-interlaced PNG.
    public var isProgressive: Bool
    public var colorSpace: ImageColorSpace
    /// Bits per sample as stored (8 for almost every JPEG; 1...16 for PNG).
    public var bitsPerComponent: Int
    /// Alpha channel or tRNS transparency (PNG only).
    public var hasAlpha: Bool
    /// Arithmetic-coded JPEG (rare; decodes with this libjpeg-turbo).
    public var isArithmeticCoded: Bool
    /// The EXIF block's fields, when the file has one.
    public var exif: ExifData?
    /// A video clip's length, when its container says it (nil for stills).
    public var clipDuration: Duration?

    public init(format: ImageFormat, pixelWidth: Int, pixelHeight: Int, orientation: ExifOrientation = .up,
                isProgressive: Bool = false, colorSpace: ImageColorSpace = .rgb, bitsPerComponent: Int = 8,
                hasAlpha: Bool = false, isArithmeticCoded: Bool = false, exif: ExifData? = nil) {
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = orientation
        self.isProgressive = isProgressive
        self.colorSpace = colorSpace
        self.bitsPerComponent = bitsPerComponent
        self.hasAlpha = hasAlpha
        self.isArithmeticCoded = isArithmeticCoded
        self.exif = exif
    }

    /// Stored size in pixels.
    public var pixelSize: Size { Size(width: pixelWidth, height: pixelHeight) }
    /// The size as displayed, after orientation (width and height swap for 5...8).
    public var orientedSize: Size { orientation.orientedSize(pixelSize) }
    public var pixelCount: Int { pixelWidth * pixelHeight }
}
