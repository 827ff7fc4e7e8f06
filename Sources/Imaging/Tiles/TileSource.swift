import Graphics

/// Where the tiles of one huge image come from: a Deep Zoom folder, a photo cut on the fly, or a
/// procedural picture. Called on loader worker threads, several at once: thread-safe.
public protocol TileSource: Sendable {
    /// Size, tile size and overlap; levels are numbered as in Deep Zoom (maxLevel = full size).
    var layout: DeepZoomLayout { get }
    /// Unique to this image's pixels: the prefix of its tiles' cache keys.
    var identity: String { get }
    /// The stored pixels of a tile (its square plus any overlap; see `DeepZoomLayout`).
    func tile(level: Int, column: Int, row: Int) throws -> Bitmap
}

/// A pyramid on disk: `NAME.dzi` and `NAME_files/` (ours, libvips dzsave's, OpenSeadragon's).
public struct DeepZoomTileSource: TileSource {
    public let descriptor: DeepZoomDescriptor
    public let descriptorPath: String
    private let tilesDirectory: String
    private let options: DecodeOptions

    public init(descriptorPath: String, options: DecodeOptions = .default) throws(ImagingError) {
        let bytes = try FileReader.read(path: descriptorPath, maxBytes: 1 << 20)
        descriptor = try DeepZoomDescriptor.parse(String(decoding: bytes, as: UTF8.self))
        self.descriptorPath = descriptorPath
        let base = descriptorPath.hasSuffix(".dzi") ? String(descriptorPath.dropLast(4))
            : descriptorPath.hasSuffix(".xml") ? String(descriptorPath.dropLast(4)) : descriptorPath
        tilesDirectory = base + "_files"
        self.options = options
    }

    public var layout: DeepZoomLayout { descriptor.layout }
    public var identity: String { "dzi:" + descriptorPath }

    public func tilePath(level: Int, column: Int, row: Int) -> String {
        "\(tilesDirectory)/\(level)/\(column)_\(row).\(descriptor.format)"
    }

    public func tile(level: Int, column: Int, row: Int) throws -> Bitmap {
        try ImageDecoder.decode(path: tilePath(level: level, column: column, row: row), options: options).bitmap
    }
}
