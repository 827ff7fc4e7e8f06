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
///
/// The result carries what the decode read from the header (the original size), so the file is
/// opened and its header parsed once per decode, on the worker.
public protocol ImageSourceDecoder: Sendable {
    func decode(_ request: ImageRequest) throws -> LoadedImage
}

/// An `ImageSourceDecoder` made from a closure that makes a bitmap (tiles, tests): it knows no
/// original size.
public struct ClosureDecoder: ImageSourceDecoder {
    private let body: @Sendable (ImageRequest) throws -> Bitmap

    public init(_ body: @escaping @Sendable (ImageRequest) throws -> Bitmap) {
        self.body = body
    }

    public func decode(_ request: ImageRequest) throws -> LoadedImage {
        LoadedImage(bitmap: try body(request))
    }
}
