import Basics
import Graphics

/// Tiles cut from an ordinary photo while it is shown: each level is decoded when first asked
/// for (JPEGs at the smallest DCT scale that covers it, so the fit level is cheap), and tiles
/// are cut from it. At most two levels are kept. Levels whose bitmap would take more than
/// `maxLevelBytes` are not decoded (a 5640x3172 photo's full level is 72 MB, plus its decode's
/// working memory): their tiles fail with `.tooLarge` and the view keeps showing the coarser
/// level scaled until the photo's pyramid on disk is ready.
public final class OnTheFlyTileSource: TileSource, @unchecked Sendable {
    public let path: RawPath
    public let layout: DeepZoomLayout
    public let maxLevelBytes: Int
    private let options: DecodeOptions
    private let lock = ThreadMutex()
    private var levels: [(level: Int, bitmap: Bitmap)] = []

    public init(path: RawPath, tileSize: Int = 256, options: DecodeOptions = .default,
                maxLevelBytes: Int = 32 << 20) throws(ImagingError) {
        let info = try ImageDecoder.probe(path: path, options: options)
        self.path = path
        self.options = options
        self.maxLevelBytes = maxLevelBytes
        layout = DeepZoomLayout(width: Int(info.orientedSize.width), height: Int(info.orientedSize.height), tileSize: tileSize)
    }

    /// Byte-exact (a name that is not UTF-8 keeps its own tiles).
    public convenience init(path: String, tileSize: Int = 256, options: DecodeOptions = .default,
                            maxLevelBytes: Int = 32 << 20) throws(ImagingError) {
        try self.init(path: RawPath(path), tileSize: tileSize, options: options, maxLevelBytes: maxLevelBytes)
    }

    public var identity: String { "photo:" + path.escapedLine }

    public func tile(level: Int, column: Int, row: Int) throws -> Bitmap {
        let image = try levelBitmap(level)
        let size = layout.levelSize(level)
        let rect = layout.storedRect(level: level, column: column, row: row)
        guard rect.width > 0, rect.height > 0 else { throw ImagingError(.io, "no tile \(column)_\(row) at level \(level)") }
        // The decode's size may differ from the level's by a rounding pixel: scale to match.
        let sx = Double(image.width) / Double(size.width), sy = Double(image.height) / Double(size.height)
        let tile = Bitmap(width: rect.width, height: rect.height)
        Canvas(target: tile).draw(image, from: Rect(x: Double(rect.x) * sx, y: Double(rect.y) * sy,
                                                    width: Double(rect.width) * sx, height: Double(rect.height) * sy),
                                  in: Rect(x: 0, y: 0, width: rect.width, height: rect.height))
        return tile
    }

    /// The level's whole picture, decoded once (one decode at a time: two workers asking for
    /// the same level share it).
    private func levelBitmap(_ level: Int) throws -> Bitmap {
        try lock.withLock {
            if let hit = levels.first(where: { $0.level == level }) { return hit.bitmap }
            let size = layout.levelSize(level)
            guard size.width * size.height * 4 <= maxLevelBytes else {
                throw ImagingError(.tooLarge, "level \(level) (\(size.width)x\(size.height)) is only read from the pyramid")
            }
            let bitmap = try ImageDecoder.decode(path: path, fitting: Size(width: size.width, height: size.height),
                                                 options: options).bitmap
            levels.append((level, bitmap))
            if levels.count > 2 { levels.removeFirst() }
            return bitmap
        }
    }
}
