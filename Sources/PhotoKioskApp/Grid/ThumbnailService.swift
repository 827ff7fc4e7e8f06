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
    private let cache: ImageCache
    private let logger: Logger
    /// Clips' lengths for the cells' badges, as the loads found them.
    private let clipDurations: ClipDurations
    /// Called with the photo index whose thumbnail arrived (the bitmap itself) or failed, for
    /// the views showing it.
    public var onChange: ((Int, ThumbnailState) -> Void)?
    /// Called when a fling starts (true) and ends (false) deferring loads: the app pauses the
    /// loader meanwhile, so loads queued before the fling for cells it carries away do not start.
    public var onLoadsDeferred: ((Bool) -> Void)?

    /// What the grid wants: loads, pins (every wanted cell) and failures.
    private var loads: LoadSet!
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

    public init(photos: PhotoList, loader: any ImageLoading, cache: ImageCache, logger: Logger,
                clipDurations: ClipDurations = ClipDurations()) {
        self.photos = photos
        self.cache = cache
        self.logger = logger
        self.clipDurations = clipDurations
        loads = LoadSet(loader: loader, cache: cache) { [unowned self] key, result in arrived(key, result) }
    }

    /// Loads still running or queued (for tests and the headless "settled" check).
    public var pendingLoads: Int { loads.loadingCount }

    private func key(at index: Int, edge: Int) -> ImageKey? {
        guard index >= 0, index < photos.count else { return nil }
        return ImageKey(path: photos[index].path, size: .thumbnail(edge: edge))
    }

    public func thumbnailState(at index: Int, edge: Int) -> ThumbnailState {
        guard let key = key(at: index, edge: edge) else { return .loading }
        if let reason = loads.failure(for: key.path) { return .failed(reason: reason) }
        if let bitmap = cache.bitmap(for: key) {
            byteCounts[key] = bitmap.byteCount
            return .image(bitmap)
        }
        return .loading
    }

    public func clipDuration(at index: Int) -> Duration? {
        guard index >= 0, index < photos.count else { return nil }
        return clipDurations.value(for: photos[index].path)
    }

    public func isLivePhoto(at index: Int) -> Bool {
        guard index >= 0, index < photos.count else { return false }
        return photos[index].motion != nil
    }

    public func updateWantedThumbnails(_ distances: [Int: Double], edge: Int) {
        var wanted: [ImageKey: Double] = [:]
        for (index, distance) in distances {
            if let key = key(at: index, edge: edge) { wanted[key] = distance }
        }
        for key in loads.wanted.keys where wanted[key] == nil { released.append(key) }
        released.removeAll { wanted[$0] != nil }
        load(wanted)
        trimReleased()
    }

    /// Hands `wanted` to the load set, every wanted cell pinned; while the grid is flung, keys
    /// not yet asked for are only counted.
    private func load(_ wanted: [ImageKey: Double]) {
        let deferred = loads.update(wanted, pinning: Set(wanted.keys), requestsNew: !isDeferringLoads)
        for key in deferred where deferredKeys.insert(key).inserted { deferredRequestCount += 1 }
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
        load(loads.wanted)
    }

    private func arrived(_ key: ImageKey, _ result: Result<LoadedImage, any Error>) {
        let state: ThumbnailState
        switch result {
        case .success(let image):
            byteCounts[key] = image.bitmap.byteCount
            state = .image(image.bitmap)
        case .failure(let error):
            logger.warning("broken photo: \(error)")
            state = .failed(reason: loads.failure(for: key.path) ?? "\(error)")
        }
        // The photo may have moved in the list since the request (library changes).
        guard let index = photos.index(at: key.path) else { return }
        onChange?(index, state)
    }

    /// Forgets cached results for a file that changed or disappeared.
    public func invalidate(path: RawPath) {
        loads.forget(path: path)
        clipDurations.forget(path)
        for key in byteCounts.keys where key.path == path { byteCounts[key] = nil }
        cache.removeAll(path: path)
    }
}
