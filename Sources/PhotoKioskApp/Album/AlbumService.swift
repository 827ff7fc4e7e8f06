import Graphics
import Imaging
import Logging
import Widgets

/// Serves the album's pages from the memory cache and loads what they want through the image
/// loader: the grid's thumbnail at once (already cached), a screen-sized decode, and the full
/// image for a page zoomed past the screen image's resolution. Runs on the event loop thread.
///
/// Each want costs at most one loader request per key; a request whose photo dropped out of the
/// album's wanted set is cancelled (dropped before it starts when still queued). Screen images of
/// wanted photos are pinned in the cache. A bitmap the cache refused (a full-size image over the
/// budget) is held by the service itself while its page wants it.
public final class AlbumService: PhotoAlbumSource {
    private let photos: PhotoList
    private let loader: any AlbumImageLoading
    private let cache: ImageCache
    private let sizes: OriginalSizes
    private let logger: Logger
    /// The screen size screen-quality decodes fit in.
    public var screenSize: Size
    /// The grid's thumbnail edge: its cached thumbnails are the first paint.
    public var thumbnailEdge: Int
    /// Called with the photo index whose content improved or failed.
    public var onChange: ((Int) -> Void)?
    /// The photos' own captions (read off the loop thread); nil shows none.
    var captions: AlbumCaptions? {
        didSet { captions?.onRead = { [weak self] path in self?.captionRead(path) } }
    }
    /// Called with the photo index whose caption was read.
    public var onCaptionChange: ((Int) -> Void)?

    private var tickets: [ImageKey: LoadTicket] = [:]
    private var pinned: Set<ImageKey> = []
    private var held: [ImageKey: Bitmap] = [:]
    private var failures: [RawPath: String] = [:]

    public init(photos: PhotoList, loader: any AlbumImageLoading, cache: ImageCache, sizes: OriginalSizes,
                screenSize: Size, thumbnailEdge: Int, logger: Logger) {
        self.photos = photos
        self.loader = loader
        self.cache = cache
        self.sizes = sizes
        self.screenSize = screenSize
        self.thumbnailEdge = thumbnailEdge
        self.logger = logger
    }

    /// Loads queued or running (for tests and measurements).
    public var pendingLoads: Int { tickets.count }

    func screenKey(_ path: RawPath) -> ImageKey {
        ImageKey(path: path, size: .screen(width: Int(screenSize.width), height: Int(screenSize.height)))
    }

    func thumbnailKey(_ path: RawPath) -> ImageKey {
        ImageKey(path: path, size: .thumbnail(edge: thumbnailEdge))
    }

    // MARK: PhotoAlbumSource

    public var photoCount: Int { photos.count }

    public func photoContent(at index: Int) -> PhotoContent {
        guard index >= 0, index < photos.count else { return .empty }
        let path = photos[index].path
        let original = sizes.size(of: path)
        let failure = failures[path]
        let candidates: [(ImageKey, PhotoQuality)] = [(ImageKey(path: path, size: .full), .full),
                                                      (screenKey(path), .screen), (thumbnailKey(path), .thumbnail)]
        for (key, quality) in candidates {
            if let bitmap = held[key] ?? cache.bitmap(for: key) {
                return PhotoContent(bitmap: bitmap, quality: quality, originalSize: original, failure: failure)
            }
        }
        return PhotoContent(originalSize: original, failure: failure)
    }

    public func caption(at index: Int) -> String? {
        guard index >= 0, index < photos.count else { return nil }
        return captions?.caption(for: photos[index].path)
    }

    private func captionRead(_ path: RawPath) {
        guard let index = photos.index(at: path) else { return }
        onCaptionChange?(index)
    }

    public func updateWantedPhotos(_ demands: [Int: PhotoDemand]) {
        var wanted: [ImageKey: Double] = [:]
        for (index, demand) in demands where index >= 0 && index < photos.count {
            let path = photos[index].path
            if failures[path] != nil { continue }
            // The thumbnail first (fast, usually cached by the grid), then the screen image; the
            // full image only for a page zoomed past the screen image.
            wanted[thumbnailKey(path)] = demand.distance
            wanted[screenKey(path)] = demand.distance + 0.5
            if demand.quality >= .full {
                wanted[ImageKey(path: path, size: .full)] = demand.distance + 0.75
            }
        }
        for (key, ticket) in tickets where wanted[key] == nil {
            loader.cancel(ticket)
            tickets[key] = nil
        }
        for key in held.keys where wanted[key] == nil { held[key] = nil }
        let screenKeys = Set(wanted.keys.filter { if case .screen = $0.size { return true } else { return false } })
        for key in pinned where !screenKeys.contains(key) {
            cache.unpin(key)
            pinned.remove(key)
        }
        for key in screenKeys where pinned.insert(key).inserted { cache.pin(key) }
        // Nearest first, so equal distances queue in a stable order.
        for (key, distance) in wanted.sorted(by: { ($0.value, $0.key.description) < ($1.value, $1.key.description) }) {
            if isAvailable(key) { continue }
            if let ticket = tickets[key] {
                loader.update(ticket, distance: distance)
            } else {
                tickets[key] = loader.request(key, distance: distance) { [weak self] key, result in
                    self?.finished(key, result)
                }
            }
        }
    }

    private func isAvailable(_ key: ImageKey) -> Bool {
        held[key] != nil || cache.contains(key)
    }

    private func finished(_ key: ImageKey, _ result: Result<Bitmap, any Error>) {
        tickets[key] = nil
        switch result {
        case .success(let bitmap):
            if !cache.contains(key) { held[key] = bitmap }
        case .failure(let error):
            if failures[key.path] == nil {
                failures[key.path] = "\(error)"
                logger.warning("cannot show photo: \(error)")
            }
        }
        guard let index = photos.index(at: key.path) else { return }
        onChange?(index)
    }

    /// Forgets everything about a file that changed or disappeared.
    public func invalidate(path: RawPath) {
        captions?.invalidate(path)
        failures[path] = nil
        for key in held.keys where key.path == path { held[key] = nil }
        sizes.forget(path)
    }

    /// Cancels every load and drops the pins (the album closed).
    public func stopAll() {
        updateWantedPhotos([:])
    }
}
