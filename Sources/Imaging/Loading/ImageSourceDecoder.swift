import Graphics

/// One decode job as a worker sees it.
public struct ImageRequest: Sendable, CustomStringConvertible {
    public var key: ImageKey

    public init(key: ImageKey) {
        self.key = key
    }

    public var path: RawPath { key.path }
    public var size: SizeClass { key.size }
    public var description: String { key.description }
}

/// Turns a request into pixels. Called on loader worker threads, several at once, so it must be
/// thread-safe. The JPEG/PNG decoders (and the thumbnail disk cache in front of them) are plugged
/// in here by the app; the loader knows nothing about file formats.
public protocol ImageSourceDecoder: Sendable {
    func decode(_ request: ImageRequest) throws -> Bitmap
}

/// An `ImageSourceDecoder` made from a closure.
public struct ClosureDecoder: ImageSourceDecoder {
    private let body: @Sendable (ImageRequest) throws -> Bitmap

    public init(_ body: @escaping @Sendable (ImageRequest) throws -> Bitmap) {
        self.body = body
    }

    public func decode(_ request: ImageRequest) throws -> Bitmap {
        try body(request)
    }
}
