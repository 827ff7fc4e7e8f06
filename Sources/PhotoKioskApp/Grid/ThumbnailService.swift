import Graphics
import Imaging
import Logging
import Widgets

/// Serves the grid's thumbnails from the memory cache, and loads the missing ones through the
/// image loader (whose decoder reads the disk cache first). Runs on the event loop thread.
///
/// Only what the grid currently wants is requested; a load whose cell was scrolled away is
/// cancelled (dropped before it starts when still queued). Bitmaps of wanted cells are pinned
/// in the cache so scrolling back and forth never evicts what is on screen. While the grid is
/// flung fast (`setLoadsDeferred`), cells passing by are not requested at all; when it slows
/// down, the cells wanted then are.
public final class ThumbnailService: ThumbnailProvider {
    private let photos: PhotoList
    private let loader: any AlbumImageLoading
    private let cache: ImageCache
    private let logger: Logger
    /// Called with the photo index whose thumbnail arrived or failed.
    public var onChange: ((Int) -> Void)?
    /// Called when a fling starts (true) and ends (false) deferring loads: the app pauses the
    /// loader meanwhile, so loads queued before the fling for cells it carries away do not start.
    public var onLoadsDeferred: ((Bool) -> Void)?

    private var tickets: [ImageKey: LoadTicket] = [:]
    private var pinned: Set<ImageKey> = []
    private var failures: [RawPath: String] = [:]
    /// The grid's last wanted cells and their urgency (requested when a deferral ends).
    private var wanted: [ImageKey: Double] = [:]
    public private(set) var isDeferringLoads = false
    /// Thumbnails wanted while the grid was being flung and not requested then (for tests and
    /// benchmarks); `deferredKeys` are those of the fling in progress.
    public private(set) var deferredRequestCount = 0
    private var deferredKeys: Set<ImageKey> = []
    /// Bytes of thumbnails kept in the memory cache after their cells left the grid's reach (a
    /// quick way back); beyond it the oldest are dropped. Without this bound the thumbnails of
    /// everything ever scrolled past would stay until the shared cache's budget (64 MB by default,
    /// also holding the album's screen images) is full, on top of the grid's own memory.
    public var keptUnwantedBytes = 16 << 20
    /// Keys unpinned because their cells left, oldest first.
    private var released: [ImageKey] = []
    /// Sizes of the thumbnails handed to the grid (counted without touching the cache's recency).
    private var byteCounts: [ImageKey: Int] = [:]

    public init(photos: PhotoList, loader: any AlbumImageLoading, cache: ImageCache, logger: Logger) {
        self.photos = photos
        self.loader = loader
        self.cache = cache
        self.logger = logger
    }

    /// Loads still running or queued (for tests and the headless "settled" check).
    public var pendingLoads: Int { tickets.count }

    private func key(at index: Int, edge: Int) -> ImageKey? {
        guard index >= 0, index < photos.count else { return nil }
        return ImageKey(path: photos[index].path, size: .thumbnail(edge: edge))
    }

    public func thumbnailState(at index: Int, edge: Int) -> ThumbnailState {
        guard let key = key(at: index, edge: edge) else { return .loading }
        if let reason = failures[key.path] { return .failed(reason: reason) }
        if let bitmap = cache.bitmap(for: key) {
            byteCounts[key] = bitmap.byteCount
            return .image(bitmap)
        }
        return .loading
    }

    public func updateWantedThumbnails(_ distances: [Int: Double], edge: Int) {
        var wanted: [ImageKey: (index: Int, distance: Double)] = [:]
        for (index, distance) in distances {
            if let key = key(at: index, edge: edge) { wanted[key] = (index, distance) }
        }
        for (key, ticket) in tickets where wanted[key] == nil {
            loader.cancel(ticket)
            tickets[key] = nil
        }
        for key in pinned where wanted[key] == nil {
            cache.unpin(key)
            pinned.remove(key)
            released.append(key)
        }
        released.removeAll { wanted[$0] != nil }
        trimReleased()
        self.wanted = wanted.mapValues(\.distance)
        for (key, want) in wanted {
            if pinned.insert(key).inserted { cache.pin(key) }
            request(key, distance: want.distance)
        }
    }

    /// Drops the oldest released thumbnails from the cache beyond `keptUnwantedBytes`.
    private func trimReleased() {
        var kept = 0
        var keep = released.count
        for (position, key) in released.enumerated().reversed() {
            kept += byteCounts[key] ?? 0
            if kept > keptUnwantedBytes { break }
            keep = position
        }
        for key in released[..<keep] {
            byteCounts[key] = nil
            // The album may hold the same thumbnail as its stand-in.
            if !cache.isPinned(key) { cache.remove(key) }
        }
        released.removeFirst(keep)
    }

    public func setLoadsDeferred(_ deferred: Bool) {
        guard deferred != isDeferringLoads else { return }
        isDeferringLoads = deferred
        onLoadsDeferred?(deferred)
        guard !deferred else { return }
        deferredKeys = []
        for (key, distance) in wanted { request(key, distance: distance) }
    }

    /// Asks the loader for `key` unless it is cached, failed, already asked for, or the grid is
    /// being flung (then only loads already asked for move in the queue).
    private func request(_ key: ImageKey, distance: Double) {
        if failures[key.path] != nil || cache.contains(key) { return }
        if let ticket = tickets[key] {
            loader.update(ticket, distance: distance)
        } else if isDeferringLoads {
            if deferredKeys.insert(key).inserted { deferredRequestCount += 1 }
        } else {
            tickets[key] = loader.request(key, distance: distance) { [weak self] key, result in
                self?.finished(key, result)
            }
        }
    }

    private func finished(_ key: ImageKey, _ result: Result<Bitmap, any Error>) {
        tickets[key] = nil
        if case .failure(let error) = result, failures[key.path] == nil {
            failures[key.path] = "\(error)"
            logger.warning("broken photo: \(error)")
        }
        // The photo may have moved in the list since the request (library changes).
        guard let index = photos.index(at: key.path) else { return }
        onChange?(index)
    }

    /// Forgets cached results for a file that changed or disappeared.
    public func invalidate(path: RawPath) {
        failures[path] = nil
        for key in byteCounts.keys where key.path == path { byteCounts[key] = nil }
        cache.removeAll(path: path)
    }
}
