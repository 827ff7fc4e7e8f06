import Graphics

/// What the thumbnail disk cache keeps for a photo or clip: the thumbnail, and for a clip its
/// duration (the grid's badge), so a cached clip needs no decode to show either.
public struct CachedThumbnail: Sendable {
    public var bitmap: Bitmap
    public var clipDuration: Duration?

    public init(bitmap: Bitmap, clipDuration: Duration? = nil) {
        self.bitmap = bitmap
        self.clipDuration = clipDuration
    }
}
