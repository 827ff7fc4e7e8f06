import Basics
import Imaging

/// Something each load brings back about a photo (its original size, a clip's length), noted by
/// path on the loader's workers so that the loop thread can read it without opening the file.
public final class LoadNotes<Value: Sendable>: Sendable {
    private let values = Locked<[RawPath: Value]>([:])

    public init() {}

    public func value(for path: RawPath) -> Value? {
        values.withLock { $0[path] }
    }

    public func record(_ value: Value, for path: RawPath) {
        values.withLock { $0[path] = value }
    }

    public func forget(_ path: RawPath) {
        _ = values.withLock { $0.removeValue(forKey: path) }
    }
}

/// Wraps a decoder and notes what `note` reads from each load it brings back (nil: nothing to
/// note). Nothing here opens a file.
public struct LoadNotingDecoder<Value: Sendable>: ImageSourceDecoder {
    public let inner: any ImageSourceDecoder
    public let notes: LoadNotes<Value>
    private let note: @Sendable (LoadedImage) -> Value?

    public init(_ inner: any ImageSourceDecoder, notes: LoadNotes<Value>, noting note: @escaping @Sendable (LoadedImage) -> Value?) {
        self.inner = inner
        self.notes = notes
        self.note = note
    }

    public func decode(_ request: ImageRequest) throws -> LoadedImage {
        let image = try inner.decode(request)
        if let value = note(image) { notes.record(value, for: request.path) }
        return image
    }
}
