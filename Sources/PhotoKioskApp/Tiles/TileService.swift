import Graphics
import Imaging
import Logging
import Widgets

/// Serves a `TiledImageView` the tiles of one `TileSource`: from the shared memory cache when
/// there, otherwise loaded on worker threads (an `ImageLoader` of its own, most urgent first,
/// dropped when no longer wanted) with results handed back on the event loop. Tiles on screen
/// are pinned in the cache, so they are never evicted; stand-ins (coarser tiles) and tiles
/// scrolled away age out under the cache's byte budget. Every loaded tile is also held while
/// the view wants it (the same bitmap, no copy), so one the cache refused or evicted (pinned tiles
/// already fill the budget) is never decoded twice: a small budget costs memory beyond it (at
/// most the live-tile bound), never a reload loop. The wanting, pinning, holding and failures
/// are a `LoadSet`'s, as for the grid and the album. Runs on the event loop thread.
public final class TileService: TiledImageProvider {
    public private(set) var source: any TileSource
    public var onTileLoaded: ((TileID) -> Void)?

    private let cache: ImageCache
    private let logger: Logger
    private var loader: ImageLoader
    private let deliver: ImageLoader.Delivery
    /// The current source's tiles (a new set with each source).
    private var loads: LoadSet!
    private var wanted: [TileID: Double] = [:]
    /// The tile each wanted key is (for the view and the logs).
    private var ids: [ImageKey: TileID] = [:]
    /// The source replaced by `replaceSource`: its cached tiles stand in until the new ones load.
    private var previous: (any TileSource)?

    public init(source: any TileSource, cache: ImageCache, logger: Logger,
                workerCount: Int = ImageLoader.defaultWorkerCount, deliver: @escaping ImageLoader.Delivery) {
        self.source = source
        self.cache = cache
        self.logger = logger
        self.deliver = deliver
        loader = Self.makeLoader(source, cache: cache, workerCount: workerCount, deliver: deliver)
        loads = makeLoadSet()
    }

    deinit {
        loads.removeAll()
        loader.shutdown()
    }

    private static func makeLoader(_ source: any TileSource, cache: ImageCache, workerCount: Int,
                                   deliver: @escaping ImageLoader.Delivery) -> ImageLoader {
        ImageLoader(decoder: ClosureDecoder { request in
            guard let tile = TileKey(request.key) else { throw ImagingError(.internalFailure, "not a tile key: \(request.key)") }
            return try source.tile(level: tile.level, column: tile.column, row: tile.row)
        }, cache: cache, workerCount: workerCount, deliver: deliver)
    }

    private func makeLoadSet() -> LoadSet {
        // Held while wanted even when the cache took it: a stand-in the cache evicts (it is not
        // pinned) while finer tiles still load would otherwise be decoded again.
        LoadSet(loader: loader, cache: cache, holding: .always) { [unowned self] key, result in arrived(key, result) }
    }

    public var imageSize: Size { Size(width: source.layout.width, height: source.layout.height) }
    public var tileSize: Int { source.layout.tileSize }
    public var minimumResolution: Int { -source.layout.maxLevel }
    /// Tile loads queued or running.
    public var pendingLoads: Int { loads.loadingCount }
    public var statistics: LoaderStatistics { loader.statistics }

    public func tile(_ id: TileID) -> TileImage? {
        if let image = image(id, from: source) { return image }
        return previous.flatMap { image(id, from: $0) }
    }

    private func image(_ id: TileID, from source: any TileSource) -> TileImage? {
        // Held by the load set (the current source's) or in the cache (either source's).
        guard let key = key(id, source), let bitmap = loads.bitmap(for: key) else { return nil }
        let level = source.layout.maxLevel + id.resolution
        let c = source.layout.contentRect(level: level, column: id.column, row: id.row)
        return TileImage(bitmap: bitmap, contentRect: Rect(x: c.x, y: c.y, width: c.width, height: c.height))
    }

    public func updateWantedTiles(_ priorities: [TileID: Double]) {
        wanted = priorities
        var keys: [ImageKey: Double] = [:]
        var onScreen: Set<ImageKey> = []
        ids = [:]
        for (id, priority) in priorities {
            guard let key = key(id, source) else { continue }
            keys[key] = priority
            ids[key] = id
            if priority < TiledImageView.standInPriority { onScreen.insert(key) }
        }
        loads.update(keys, pinning: onScreen)
    }

    /// Switches to another source of the same image (the finished pyramid replacing tiles cut
    /// on the fly). The old source's cached tiles keep showing until the new ones arrive.
    public func replaceSource(_ newSource: any TileSource) {
        loads.removeAll()
        loader.shutdown()
        previous = source
        source = newSource
        loader = Self.makeLoader(newSource, cache: cache, workerCount: ImageLoader.defaultWorkerCount, deliver: deliver)
        loads = makeLoadSet()
        updateWantedTiles(wanted)
    }

    private func arrived(_ key: ImageKey, _ result: Result<LoadedImage, any Error>) {
        guard let id = ids[key] else { return }
        if case .failure(let error) = result {
            // A level the on-the-fly source leaves to the pyramid is expected, not a problem.
            if (error as? ImagingError)?.kind == .tooLarge {
                logger.debug("tile \(id): \(error)")
            } else {
                logger.warning("tile \(id): \(error)")
            }
            return
        }
        onTileLoaded?(id)
    }

    private func key(_ id: TileID, _ source: any TileSource) -> ImageKey? {
        let level = source.layout.maxLevel + id.resolution
        guard level >= 0 else { return nil }
        return TileKey(identity: source.identity, level: level, column: id.column, row: id.row).imageKey
    }
}

/// A tile as a cache key: the loader and cache know images by path, so a tile's path is its
/// source's identity plus "#level/column_row" (unique; never a real file name the loader opens).
struct TileKey {
    var identity: String
    var level: Int
    var column: Int
    var row: Int

    init(identity: String, level: Int, column: Int, row: Int) {
        self.identity = identity
        self.level = level
        self.column = column
        self.row = row
    }

    var imageKey: ImageKey { ImageKey(path: RawPath("\(identity)#\(level)/\(column)_\(row)"), size: .full) }

    init?(_ key: ImageKey) {
        let text = key.path.description
        guard let hash = text.lastIndex(of: "#") else { return nil }
        let parts = text[text.index(after: hash)...].split(whereSeparator: { $0 == "/" || $0 == "_" })
        guard parts.count == 3, let l = Int(parts[0]), let c = Int(parts[1]), let r = Int(parts[2]) else { return nil }
        self.init(identity: String(text[..<hash]), level: l, column: c, row: r)
    }
}
