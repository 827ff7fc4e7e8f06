import Basics
import Graphics
import Imaging

/// Photos' full (oriented) sizes, as their decodes read them from the headers on the loader's
/// workers (`LoadedImage.originalSize`, noted by `OriginalSizeRecordingDecoder`). The album needs
/// them to zoom to one photo pixel per screen pixel while it still shows a smaller bitmap, and to
/// tell a photo it shows in tiles — without reading a file on the loop thread.
public final class OriginalSizes: Sendable {
    private let sizes = Locked<[RawPath: Size]>([:])

    public init() {}

    public func size(of path: RawPath) -> Size? {
        sizes.withLock { $0[path] }
    }

    public func record(_ size: Size, for path: RawPath) {
        sizes.withLock { $0[path] = size }
    }

    public func forget(_ path: RawPath) {
        _ = sizes.withLock { $0.removeValue(forKey: path) }
    }
}

/// Wraps the loader's decoder and notes the original size each decode brings back (every size
/// class: the grid's thumbnails, the album's and the slideshow's screen images), so the album
/// knows it even for a photo whose bitmaps it finds in the cache. The decode read the header
/// once; nothing here opens the file. A thumbnail from the disk cache brings none.
public struct OriginalSizeRecordingDecoder: ImageSourceDecoder {
    public let inner: any ImageSourceDecoder
    public let sizes: OriginalSizes

    public init(_ inner: any ImageSourceDecoder, sizes: OriginalSizes) {
        self.inner = inner
        self.sizes = sizes
    }

    public func decode(_ request: ImageRequest) throws -> LoadedImage {
        let image = try inner.decode(request)
        if let size = image.originalSize { sizes.record(size, for: request.path) }
        return image
    }
}
