import Graphics

/// What a load hands back: the bitmap at the size class asked for, and what the decode learnt
/// about the photo on the way, so that nobody opens the file again to find it out.
public struct LoadedImage: Sendable {
    public var bitmap: Bitmap
    /// The photo's full size as displayed (oriented), when this load read the file's header; nil
    /// for a bitmap that came from elsewhere (the memory or thumbnail disk cache, a tile source).
    public var originalSize: Size?
    /// The header's details, with the same proviso (no EXIF thumbnail bytes: see `DecodedImage`).
    public var info: ImageInfo?
    /// A video clip's length: from the decode (`info.clipDuration`) or from the thumbnail disk
    /// cache, which keeps it beside the poster (the grid's badge needs it either way).
    public var clipDuration: Duration?

    public init(bitmap: Bitmap, originalSize: Size? = nil, info: ImageInfo? = nil, clipDuration: Duration? = nil) {
        self.bitmap = bitmap
        self.originalSize = originalSize
        self.info = info
        self.clipDuration = clipDuration ?? info?.clipDuration
    }

    /// A decode's result, without its decoder-internal figures.
    public init(_ decoded: DecodedImage) {
        self.init(bitmap: decoded.bitmap, originalSize: decoded.originalSize, info: decoded.info)
    }
}
