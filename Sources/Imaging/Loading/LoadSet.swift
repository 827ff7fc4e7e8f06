import Graphics

/// The images a view wants right now, kept in step with an image loader: the one bookkeeping the
/// grid's thumbnails, the album's pages and the zoomed tiles share — what is wanted (and how
/// urgently), what is loading, pinned in the cache, held, or failed.
///
/// The view's service calls `update(_:pinning:)` after each layout with every key it wants
/// (visible cells and a prefetch margin) and its distance from the viewport. New keys are
/// requested (nearest first), known ones re-prioritised, and keys no longer wanted are withdrawn
/// and unpinned — so a fling that passes a thousand cells leaves only the last screenful queued.
/// A key already in the cache (or held here), or whose file failed, is not requested.
///
/// Every result that arrives while its key is still wanted goes to `onArrival` with the loaded
/// image itself, so the service can hand it straight to the view that wanted it.
///
/// Lives on the event loop thread, like the completions it forwards.
public final class LoadSet {
    /// Which results the set keeps a reference to while their key is wanted (the same bitmap,
    /// never a copy), besides the shared cache.
    public enum Holding: Sendable {
        /// None: the cache has them (thumbnails, pinned while wanted).
        case never
        /// Those the cache refused (a full-size image over its budget).
        case whenCacheRefuses
        /// All of them: a stand-in the cache evicts while finer ones load is not decoded again (tiles).
        case always
    }

    public typealias Arrival = (ImageKey, Result<LoadedImage, any Error>) -> Void

    private let loader: any ImageLoading
    private let cache: ImageCache
    private let holding: Holding
    private let onArrival: Arrival
    /// The last `update`'s keys and distances.
    public private(set) var wanted: [ImageKey: Double] = [:]
    private var tickets: [ImageKey: LoadTicket] = [:]
    private var pinned: Set<ImageKey> = []
    private var held: [ImageKey: Bitmap] = [:]
    /// Why a file could not be loaded, by path: a file that fails at one size fails at any.
    private var failures: [RawPath: String] = [:]

    /// - Parameter onArrival: runs (on the loop) for every result that arrives while its key is
    ///   still wanted, after the set has recorded it (held, or failed); a file's failure once.
    public init(loader: any ImageLoading, cache: ImageCache, holding: Holding = .never,
                onArrival: @escaping Arrival) {
        self.loader = loader
        self.cache = cache
        self.holding = holding
        self.onArrival = onArrival
    }

    deinit {
        for ticket in tickets.values { loader.cancel(ticket) }
        for key in pinned { cache.unpin(key) }
    }

    /// Keys requested and not yet arrived.
    public var loadingCount: Int { tickets.count }

    public func isLoading(_ key: ImageKey) -> Bool { tickets[key] != nil }

    /// The bitmap for `key` now: held here, else from the cache.
    public func bitmap(for key: ImageKey) -> Bitmap? {
        held[key] ?? cache.bitmap(for: key)
    }

    /// Why the file at `path` could not be loaded; nil unless it failed.
    public func failure(for path: RawPath) -> String? { failures[path] }

    /// Makes `wanted` (key → distance to the viewport; smaller loads first) the set being loaded,
    /// with `pins` (a subset) pinned in the cache.
    ///
    /// - Parameter requestsNew: false while new loads should wait (the grid is flung too fast for
    ///   them to be seen): only keys already loading move in the queue.
    /// - Returns: the wanted keys that need a load and were not requested (when `requestsNew` is false).
    @discardableResult
    public func update(_ wanted: [ImageKey: Double], pinning pins: Set<ImageKey>,
                       requestsNew: Bool = true) -> [ImageKey] {
        for (key, ticket) in tickets where wanted[key] == nil {
            loader.cancel(ticket)
            tickets[key] = nil
        }
        for key in held.keys where wanted[key] == nil { held[key] = nil }
        for key in pinned where !pins.contains(key) {
            cache.unpin(key)
            pinned.remove(key)
        }
        for key in pins where pinned.insert(key).inserted { cache.pin(key) }
        self.wanted = wanted
        var missing: [(key: ImageKey, distance: Double)] = []
        for (key, distance) in wanted {
            if let ticket = tickets[key] {
                loader.update(ticket, distance: distance)
            } else if failures[key.path] == nil, held[key] == nil, !cache.contains(key) {
                missing.append((key, distance))
            }
        }
        guard requestsNew else { return missing.map(\.key) }
        // Nearest first, so that equal distances queue in a stable order.
        missing.sort { ($0.distance, $0.key.description) < ($1.distance, $1.key.description) }
        for (key, distance) in missing { start(key, distance: distance) }
        return []
    }

    /// Withdraws everything and drops the pins (the view went away).
    public func removeAll() { update([:], pinning: []) }

    /// Forgets what is known about a file that changed or disappeared: its failure and held
    /// bitmaps (the cache's entries are the caller's to drop).
    public func forget(path: RawPath) {
        failures[path] = nil
        for key in held.keys where key.path == path { held[key] = nil }
    }

    private func start(_ key: ImageKey, distance: Double) {
        var ticketID: UInt64 = 0
        let ticket = loader.request(key, distance: distance) { [weak self] key, result in
            guard let self, tickets[key]?.id == ticketID else { return }
            arrived(key, result)
        }
        ticketID = ticket.id
        tickets[key] = ticket
    }

    private func arrived(_ key: ImageKey, _ result: Result<LoadedImage, any Error>) {
        tickets[key] = nil
        switch result {
        case .success(let image):
            switch holding {
            case .never: break
            case .whenCacheRefuses: if !cache.contains(key) { held[key] = image.bitmap }
            case .always: held[key] = image.bitmap
            }
        case .failure(let error):
            // Reported once per file (its other sizes in flight fail the same way).
            guard failures[key.path] == nil else { return }
            failures[key.path] = "\(error)"
        }
        onArrival(key, result)
    }
}
