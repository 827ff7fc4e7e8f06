import Graphics
import Imaging

/// Photos' full (oriented) sizes, learnt from their headers on the loader's workers. The album
/// needs them to zoom to one photo pixel per screen pixel while it still shows a smaller bitmap.
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

/// Wraps the loader's decoder: before a screen-sized or full decode it reads the photo's header
/// (a 256 KB prefix, already in the page cache for the decode that follows) and records the
/// original size. Thumbnails pass straight through (they may come from the disk cache).
public struct OriginalSizeRecordingDecoder: ImageSourceDecoder {
    public let inner: any ImageSourceDecoder
    public let sizes: OriginalSizes

    public init(_ inner: any ImageSourceDecoder, sizes: OriginalSizes) {
        self.inner = inner
        self.sizes = sizes
    }

    public func decode(_ request: ImageRequest) throws -> Bitmap {
        if case .thumbnail = request.size { return try inner.decode(request) }
        if sizes.size(of: request.path) == nil,
           let info = try? ImageDecoder.probe(path: request.path) {
            sizes.record(info.orientedSize, for: request.path)
        }
        return try inner.decode(request)
    }
}
