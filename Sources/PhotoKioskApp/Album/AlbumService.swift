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
/// budget) is held while its page wants it (all of this is the `LoadSet`'s). A decode brings the
/// photo's original size with it (read from the header on the worker; `OriginalSizes` keeps it).
public final class AlbumService: PhotoAlbumProvider {
    private let photos: PhotoList
    private let cache: ImageCache
    private let sizes: OriginalSizes
    private let logger: Logger
    /// The screen size screen-quality decodes fit in.
    public var screenSize: Size
    /// The grid's thumbnail edge: its cached thumbnails are the first paint.
    public var thumbnailEdge: Int
    /// Called with the photo index whose content improved (with that content: the bitmap that
    /// arrived) or failed, for the page showing it.
    public var onChange: ((Int, PhotoContent) -> Void)?
    /// The photos' own captions (read off the loop thread); nil shows none.
    var captions: AlbumCaptions? {
        didSet { captions?.onRead = { [weak self] path in self?.captionRead(path) } }
    }
    /// Called with the photo index whose caption was read.
    public var onCaptionChange: ((Int) -> Void)?

    private var loads: LoadSet!

    public init(photos: PhotoList, loader: any ImageLoading, cache: ImageCache, sizes: OriginalSizes,
                screenSize: Size, thumbnailEdge: Int, logger: Logger) {
        self.photos = photos
        self.cache = cache
        self.sizes = sizes
        self.screenSize = screenSize
        self.thumbnailEdge = thumbnailEdge
        self.logger = logger
        loads = LoadSet(loader: loader, cache: cache, holding: .whenCacheRefuses) { [unowned self] key, result in
            arrived(key, result)
        }
    }

    /// Loads queued or running (for tests and measurements).
    public var pendingLoads: Int { loads.loadingCount }

    func screenKey(_ path: RawPath) -> ImageKey {
        ImageKey(path: path, size: .screen(width: Int(screenSize.width), height: Int(screenSize.height)))
    }

    func thumbnailKey(_ path: RawPath) -> ImageKey {
        ImageKey(path: path, size: .thumbnail(edge: thumbnailEdge))
    }

    private static func quality(of key: ImageKey) -> PhotoQuality {
        switch key.size {
        case .thumbnail: return .thumbnail
        case .screen: return .screen
        case .full: return .full
        }
    }

    // MARK: PhotoAlbumProvider

    public var photoCount: Int { photos.count }

    public func photoContent(at index: Int) -> PhotoContent {
        guard index >= 0, index < photos.count else { return .empty }
        let path = photos[index].path
        let original = sizes.value(for: path)
        let failure = loads.failure(for: path)
        for key in [ImageKey(path: path, size: .full), screenKey(path), thumbnailKey(path)] {
            if let bitmap = loads.bitmap(for: key) {
                return PhotoContent(bitmap: bitmap, quality: Self.quality(of: key), originalSize: original, failure: failure)
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
        var screenKeys: Set<ImageKey> = []
        for (index, demand) in demands where index >= 0 && index < photos.count {
            let path = photos[index].path
            if loads.failure(for: path) != nil { continue }
            // The thumbnail first (fast, usually cached by the grid), then the screen image; the
            // full image only for a page zoomed past the screen image.
            wanted[thumbnailKey(path)] = demand.distance
            let screen = screenKey(path)
            wanted[screen] = demand.distance + 0.5
            screenKeys.insert(screen)
            if demand.quality >= .full {
                wanted[ImageKey(path: path, size: .full)] = demand.distance + 0.75
            }
        }
        loads.update(wanted, pinning: screenKeys)
    }

    private func arrived(_ key: ImageKey, _ result: Result<LoadedImage, any Error>) {
        let path = key.path
        var content: PhotoContent
        switch result {
        case .success(let image):
            // The decode read the header: the size zooming and tiling need, learnt off the loop.
            content = PhotoContent(bitmap: image.bitmap, quality: Self.quality(of: key),
                                   originalSize: image.originalSize ?? sizes.value(for: path))
        case .failure(let error):
            logger.warning("cannot show photo: \(error)")
            content = PhotoContent(originalSize: sizes.value(for: path))
        }
        content.failure = loads.failure(for: path)
        guard let index = photos.index(at: path) else { return }
        onChange?(index, content)
    }

    /// Forgets everything about a file that changed or disappeared.
    public func invalidate(path: RawPath) {
        captions?.invalidate(path)
        loads.forget(path: path)
        sizes.forget(path)
    }

    /// Cancels every load and drops the pins (the album closed).
    public func stopAll() {
        loads.removeAll()
    }
}
