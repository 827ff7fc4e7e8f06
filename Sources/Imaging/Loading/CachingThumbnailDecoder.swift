import Graphics

/// Puts the thumbnail disk cache in front of a real decoder: thumbnail requests are answered from
/// disk when the photo has not changed, and fresh thumbnails are written back (a clip's with its
/// duration, which a cached answer brings back in `LoadedImage.clipDuration`). Other size classes
/// pass straight through.
public struct CachingThumbnailDecoder: ImageSourceDecoder {
    public let inner: any ImageSourceDecoder
    public let diskCache: ThumbnailDiskCache

    public init(_ inner: any ImageSourceDecoder, diskCache: ThumbnailDiskCache) {
        self.inner = inner
        self.diskCache = diskCache
    }

    public func decode(_ request: ImageRequest) throws -> LoadedImage {
        guard case .thumbnail(let edge) = request.size,
              let key = ThumbnailCacheKey(path: request.path, edge: edge)
        else { return try inner.decode(request) }
        if let cached = diskCache.thumbnail(for: key) {
            return LoadedImage(bitmap: cached.bitmap, clipDuration: cached.clipDuration)
        }
        let image = try inner.decode(request)
        if image.bitmap.format == .xrgb8888 { diskCache.write(image.bitmap, for: key, clipDuration: image.clipDuration) }
        return image
    }
}
