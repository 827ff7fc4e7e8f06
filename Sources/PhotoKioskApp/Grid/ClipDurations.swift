import Basics
import Imaging

/// Clips' lengths, as their loads brought them back on the loader's workers (a decode's
/// `LoadedImage.clipDuration`, or the thumbnail disk cache's copy of it), noted by
/// `ClipDurationRecordingDecoder`. The grid's badges read them on the loop thread, also for a
/// clip whose thumbnail the memory cache already holds.
public final class ClipDurations: Sendable {
    private let durations = Locked<[RawPath: Duration]>([:])

    public init() {}

    public func duration(of path: RawPath) -> Duration? {
        durations.withLock { $0[path] }
    }

    public func record(_ duration: Duration, for path: RawPath) {
        durations.withLock { $0[path] = duration }
    }

    public func forget(_ path: RawPath) {
        _ = durations.withLock { $0.removeValue(forKey: path) }
    }
}

/// Wraps the loader's whole decoder chain (the disk cache included, which keeps a clip's length
/// beside its poster) and notes the length each load brings back. Nothing here opens a file.
public struct ClipDurationRecordingDecoder: ImageSourceDecoder {
    public let inner: any ImageSourceDecoder
    public let durations: ClipDurations

    public init(_ inner: any ImageSourceDecoder, durations: ClipDurations) {
        self.inner = inner
        self.durations = durations
    }

    public func decode(_ request: ImageRequest) throws -> LoadedImage {
        let image = try inner.decode(request)
        if let duration = image.clipDuration { durations.record(duration, for: request.path) }
        return image
    }
}
