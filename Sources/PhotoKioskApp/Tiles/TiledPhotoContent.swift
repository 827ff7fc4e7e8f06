import Basics
import Graphics
import Imaging
import Logging
import Platform
import Widgets

/// Tiled mode for one big photo, ready to plug into a photo viewer or album page:
///
///     if TiledPhotoContent.wantsTiles(imageSize: info.orientedSize, screenSize: window.bounds.size) {
///         let content = try TiledPhotoContent(path: path, cache: imageCache, pyramids: pyramidCache,
///                                             logger: logger, deliver: { block in loop.mailbox.post(block) })
///         content.view.frame = pageBounds
///         page.addSubview(content.view)       // pans, pinches, double/two-finger taps
///         content.start()                     // tiles at once; the pyramid builds behind
///     }
///     …
///     content.stop()                          // page recycled: loads and the build stop mattering
///
/// The view shows tiles cut on the fly from DCT-scaled decodes at once (cheap at fit), while the
/// photo's Deep Zoom pyramid is built on a worker thread into the pyramid cache (keyed by path,
/// size and mtime); when it is ready the view switches to it without moving or blanking. Next
/// time the cached pyramid is used straight away.
public final class TiledPhotoContent {
    /// The largest level cut on the fly while the pyramid builds (a 2820x1586 level fits).
    public static let maxOnTheFlyLevelBytes = 32 << 20

    /// A photo gets tiles when it is more than twice the screen in either direction.
    public static func wantsTiles(imageSize: Size, screenSize: Size) -> Bool {
        imageSize.width > 2 * screenSize.width || imageSize.height > 2 * screenSize.height
    }

    public let path: RawPath
    public let view: TiledImageView
    public let service: TileService
    /// Set once the view reads from the pyramid on disk.
    public private(set) var isPyramidReady = false
    /// Called on the loop when the pyramid is in use (or failed to build: the message).
    public var onPyramid: ((Result<String, ImagingError>) -> Void)?

    private let pyramids: PyramidCache?
    private let logger: Logger
    private let deliver: ImageLoader.Delivery
    private var isBuildQueued = false
    private let stopFlag = StopFlag()

    /// - Parameters:
    ///   - pyramids: where pyramids are cached; nil keeps cutting tiles on the fly.
    ///   - deliver: runs a block on the event loop (`loop.mailbox.post`).
    public init(path: RawPath, cache: ImageCache, pyramids: PyramidCache?, logger: Logger,
                deliver: @escaping ImageLoader.Delivery) throws(ImagingError) {
        self.path = path
        self.pyramids = pyramids
        self.logger = logger
        self.deliver = deliver
        let source: any TileSource
        if let cached = pyramids?.existing(for: path), let dzi = try? DeepZoomTileSource(descriptorPath: cached) {
            source = dzi
            isPyramidReady = true
            pyramids?.touch(cached)   // recently viewed: kept longest when the cache prunes
        } else {
            // With a pyramid coming, the finest levels wait for it (OnTheFlyTileSource.maxLevelBytes).
            source = try OnTheFlyTileSource(path: path, tileSize: pyramids?.options.tileSize ?? 256,
                                            maxLevelBytes: pyramids == nil ? .max : Self.maxOnTheFlyLevelBytes)
        }
        service = TileService(source: source, cache: cache, logger: logger, deliver: deliver)
        view = TiledImageView()
        view.provider = service
    }

    deinit { stop() }

    /// Queues the pyramid's build (PyramidBuildQueue: one at a time) when it is not cached yet.
    public func start() {
        guard !isPyramidReady, !isBuildQueued, let pyramids else { return }
        isBuildQueued = true
        // start() runs on the loop: the result comes back to this thread.
        let deliver = self.deliver, flag = stopFlag, owner = WeakLoopBound(self, on: .current)
        PyramidBuildQueue.shared.enqueue(.init(path: path, pyramids: pyramids, cancelled: flag) { result in
            guard !flag.isSet else { return }
            deliver { owner.value?.pyramidFinished(result) }
        })
    }

    /// The page went away: nothing more will be delivered, and a build not started yet is
    /// dropped. A build already running finishes (the next visit finds it cached).
    public func stop() {
        stopFlag.set()
    }

    /// Whether everything on screen shows its own tile (headless snapshots wait for this).
    public var isSettled: Bool { service.pendingLoads == 0 && view.missingTileCount == 0 }

    private func pyramidFinished(_ result: Result<String, ImagingError>) {
        switch result {
        case .success(let descriptor):
            do throws(ImagingError) {
                service.replaceSource(try DeepZoomTileSource(descriptorPath: descriptor))
                isPyramidReady = true
                view.refreshTiles()
                logger.info("tiles: pyramid of \(path) ready")
            } catch {
                logger.warning("tiles: cannot read the pyramid of \(path): \(error)")
            }
        case .failure(let error):
            logger.warning("tiles: no pyramid for \(path): \(error)")
            // The finest levels then come from whole decodes after all.
            if let whole = try? OnTheFlyTileSource(path: path, tileSize: service.tileSize, maxLevelBytes: .max) {
                service.replaceSource(whole)
                view.refreshTiles()
            }
        }
        onPyramid?(result)
    }
}

/// A flag set on the loop and read by a worker.
final class StopFlag: Sendable {
    private let value = Locked(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
