/// The channel layout an fbdev driver reports (fb_var_screeninfo bitfields), reduced to the
/// scanout formats pixman converts to.
public struct FBDevLayout: Sendable, Equatable {
    public var bitsPerPixel: Int
    public var redOffset: Int
    public var redLength: Int
    public var greenOffset: Int
    public var greenLength: Int
    public var blueOffset: Int
    public var blueLength: Int

    /// The scanout format, or nil for layouts we do not convert to (8 bpp palettes, 24 bpp).
    public var scanoutFormat: ScanoutFormat? {
        switch (bitsPerPixel, redOffset, greenOffset, blueOffset) {
        case (32, 16, 8, 0): return .xrgb8888
        case (32, 0, 8, 16): return .xbgr8888
        case (16, 11, 5, 0) where greenLength == 6: return .rgb565
        case (16, 0, 5, 11) where greenLength == 6: return .bgr565
        default: return nil
        }
    }

    public var description: String {
        "\(bitsPerPixel) bpp R\(redLength)@\(redOffset) G\(greenLength)@\(greenOffset) B\(blueLength)@\(blueOffset)"
    }
}

/// One XRGB8888 pixel as RGB565: the top 5/6/5 bits of each channel (what pixman's SRC
/// conversion does). Kept as a plain function to document and test the conversion.
public func rgb565(fromXRGB pixel: UInt32) -> UInt16 {
    let r = (pixel >> 19) & 0x1F
    let g = (pixel >> 10) & 0x3F
    let b = (pixel >> 3) & 0x1F
    return UInt16(r << 11 | g << 5 | b)
}
