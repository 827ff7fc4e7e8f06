import Graphics
import Imaging
import Logging
import Platform
import UI
import Widgets

/// The composition root: wires a display, the event loop, input, the photo library, the image
/// loader and the screens together. Everything runs on the loop thread except decoding and
/// scanning, whose results come back through `EventLoop.post`.
///
/// One turn of the loop: wait for input / timers / posted results, handle them, then `pump()`
/// runs due UI timers, draws the damaged areas into the display's frame buffer, presents them,
/// and arms the loop's deadline for the next animation step (none when idle: zero wakeups).
public final class KioskApp {
    public let host: ScreenHost
    public var window: Window { host.window }
    public let grid: ThumbnailGridView
    public let photos: PhotoList
    public let thumbnails: ThumbnailService
    public let albumService: AlbumService
    /// The full-screen album, while open.
    public private(set) var album: PhotoAlbumView?
    /// The photo the album shows: a library change (a photo added before it, or removed) keeps
    /// that photo on screen, not whichever photo now has its index.
    private var albumPhotoID: PhotoID?
    /// The person's own photo order (drag to reorder); nil when there is no state directory.
    public let customOrder: CustomOrderStore?
    /// Slideshow, screen schedule and resume state (KioskApp+SessionDriver.swift); nil until started.
    public internal(set) var life: KioskSessionDriver?

    private let loop: EventLoop
    let config: KioskConfig
    let logger: Logger
    let loader: ImageLoader
    let cache: ImageCache
    private let scanner: LibraryScanner
    private var scan: BackgroundScan?
    private var inotify: InotifyWatcher?
    /// Periodic rescans where inotify cannot hear changes (network folders) or is unavailable.
    private var poller: LibraryPoller?
    /// Seconds between those rescans (tests shorten it).
    var libraryPollInterval = 60.0
    private var roots: RootPresence?
    /// Where mounts are read and watched: the kernel's table, or a fake a test sets before the
    /// loop first runs.
    var mountTable: any MountTableSource = SystemMountTable()
    private var isWatchingMounts = false
    private var rootCheckTimer: EventLoop.TimerID?
    /// How often the folders are checked for having vanished or come back (unmounts).
    static let rootCheckInterval = 3.0
    public private(set) var isScanFinished = false
    /// What the start made of the library's listing snapshot (nil: none kept, or not scanned yet).
    public private(set) var listingSnapshotUse: SnapshotUse?
    public private(set) var resetPrompt: ConfirmPromptView?
    /// Photos over twice the screen size show as tiles over their album page (Tiles/).
    public private(set) var tiledPhoto: TiledPhotoAttachment?
    private let pyramids: PyramidCache?
    /// Photos' full sizes, shared with the album's loads (which learn them on the workers).
    private let originalSizes: OriginalSizes
    /// The clock and photo details over the album and slideshow (Overlay/); nil when `[overlay]` is all off.
    private(set) var infoOverlay: InfoOverlay?
    /// The local wall clock the overlay's clock shows, and the locale it writes dates in (tests
    /// set their own).
    public var wallClock: () -> LocalDateTime = LocalDateTime.current
    public lazy var localeTimeFormat: LocaleTimeFormat = .system

    /// - Parameters:
    ///   - folders: photo folders to show (already resolved: the CLI falls back to the samples).
    ///   - thumbnailCacheDirectory: where thumbnails are cached on disk; nil disables it.
    ///   - stateDirectory: where the custom photo order is kept (`KioskPaths.stateDirectory`);
    ///     nil keeps it for this run only.
    ///   - clock: the UI's clock; nil is the loop's (a fast replay passes a ManualClock).
    ///   - startup: the library scan, if the caller started it before opening the display
    ///     (`LibraryStartup` over the same folders, config and loop); nil starts it here.
    public init(config: KioskConfig, folders: [String], display: any Display, loop: EventLoop,
                thumbnailCacheDirectory: String?, stateDirectory: String? = nil, logger: Logger,
                clock: (any Clock)? = nil, startup: LibraryStartup? = nil) {
        HeapTuning.apply()
        self.config = config
        self.loop = loop
        self.logger = logger
        // The scan first (unless the caller started it even earlier): it runs while the rest of
        // the app is built.
        let startup = startup ?? LibraryStartup(folders: folders, config: config, loop: loop, logger: logger,
                                                screenSize: display.size,
                                                snapshot: thumbnailCacheDirectory.map { ListingSnapshotStore(directory: $0, logger: logger) })
        scanner = startup.scanner
        scan = startup.scan
        let intake = startup.intake
        host = ScreenHost(display: display, loop: loop, logger: logger, clock: clock)
        host.allowsQuit = !config.kiosk
        let photos = PhotoList(order: config.library.sort == .date ? .dateTaken : .name)
        self.photos = photos
        customOrder = stateDirectory.map { CustomOrderStore(stateDirectory: $0, photos: photos, logger: logger) }
        customOrder?.load()
        cache = ImageCache(budget: max(8, config.cache.memoryMB) << 20, onPressure: { [logger] pressure in
            logger.notice("image cache: \(pressure)")
        })
        // Large decodes (progressive photos, pyramid builds) share a budget sized to the board.
        DecodeMemoryGate.shared.budget = MemorySizing.decodeBudgetBytes(cacheMB: config.cache.memoryMB)
        let memTotal = MemorySizing.machineMemTotal.map { "\($0 >> 20) MB" } ?? "unknown"
        logger.info("memory: image cache \(config.cache.memoryMB) MB, large decodes \(DecodeMemoryGate.shared.budget >> 20) MB (MemTotal \(memTotal))")
        let originalSizes = OriginalSizes()
        self.originalSizes = originalSizes
        var decoder: any ImageSourceDecoder = OriginalSizeRecordingDecoder(PhotoFileDecoder(), sizes: originalSizes)
        if let dir = thumbnailCacheDirectory, config.cache.diskMB > 0 {
            decoder = CachingThumbnailDecoder(decoder, diskCache: ThumbnailDiskCache(
                directory: RawPath(dir), maxBytes: config.cache.diskMB << 20))
        }
        loader = ImageLoader(decoder: decoder, cache: cache, deliver: { [mailbox = loop.mailbox] block in mailbox.post(block) })
        thumbnails = ThumbnailService(photos: photos, loader: loader, cache: cache, logger: logger)
        albumService = AlbumService(photos: photos, loader: loader, cache: cache, sizes: originalSizes,
                                    screenSize: display.size, thumbnailEdge: 240, logger: logger)
        pyramids = thumbnailCacheDirectory.map { PyramidCache(directory: $0 + "/pyramids") }

        grid = ThumbnailGridView(frame: Rect(size: display.size))
        grid.preferredCellSize = Double(config.library.thumbnailSize)
        grid.font = try? Font.standard(pixelSize: 14)
        grid.provider = thumbnails
        window.addSubview(grid)
        thumbnails.onChange = { [weak self] index in
            self?.grid.thumbnailDidChange(at: index)
            self?.album?.filmstrip.thumbnailDidChange(at: index)
        }
        thumbnails.onLoadsDeferred = { [loader] deferred in deferred ? loader.pause() : loader.resume() }
        albumService.onChange = { [weak self] index in
            self?.album?.photoDidChange(at: index)
            // The page's screen image arrived under a tiled photo: its fit tiles are not needed.
            if index == self?.album?.centerPageIndex { self?.tiledPhoto?.content.view.refreshTiles() }
        }
        intake.apply = { [weak self] batch in self?.libraryChanged(self?.photos.add(batch)) }
        intake.reconcile = { [weak self] found in self?.applyScanResult(found) }
        intake.onFinish = { [weak self] summary in self?.scanDidFinish(summary) }
        grid.onSelect = { [weak self] index in self?.openPhoto(at: index) }
        grid.onMove = { [weak self] from, to in self?.movePhoto(from: from, to: to) }
        grid.onLongPressEmptyArea = { [weak self] _ in self?.confirmResetOrder() }
        host.onUnhandledKey = { [weak self] key in
            if key == .escape { self?.closePhoto() }
        }
        host.onResize = { [weak self] size in
            self?.grid.frame = Rect(size: size)
            self?.album?.frame = Rect(size: size)
            if let metrics = self?.chromeMetrics { self?.album?.metrics = metrics }
            self?.albumService.screenSize = size
            self?.updateTiledPhoto()
            self?.infoOverlay?.resize(to: size)
        }
        infoOverlay = makeInfoOverlay()
    }

    deinit {
        scan?.cancel()
        loader.shutdown()
    }

    // MARK: Start

    /// Starts display events. (The library scan already runs: `init` starts it, so listing the
    /// folders overlaps building the app; its batches go into the grid as the loop runs.)
    public func start() throws {
        try host.attachDisplay()
    }

    private func scanDidFinish(_ summary: LibraryScanner.Summary) {
        isScanFinished = true
        listingSnapshotUse = summary.snapshotUse
        logger.info("library: \(summary.fileCount) photos in \(summary.directoryCount) folders")
        startWatching()
        life?.libraryDidChange()
        checkRootsLater()
    }

    /// A folder unmounted, mounted over, renamed away, or back again: rescan (inotify does not
    /// report these). Checked when the mount table changes, and every few seconds only while a
    /// folder is missing, so an idle kiosk with all its folders present has no wakeups.
    private func checkRootsLater() {
        roots = roots ?? RootPresence(roots: scanner.roots)
        if !isWatchingMounts {
            do {
                isWatchingMounts = try mountTable.watchChanges(on: loop) { [weak self] in self?.checkRoots() }
            } catch {
                logger.notice("mount changes not watched: \(error)")
            }
        }
        scheduleMissingRootCheck()
    }

    private func checkRoots() {
        let now = RootPresence(roots: scanner.roots)
        if now != roots {
            logger.notice("library: a photo folder appeared, vanished or was remounted; rescanning")
            roots = now
            rescan()
        }
        scheduleMissingRootCheck()
    }

    /// A folder that does not exist yet (a share not mounted) is looked for every few seconds.
    private func scheduleMissingRootCheck() {
        guard rootCheckTimer == nil, roots?.isMissingAny ?? false else { return }
        rootCheckTimer = loop.addTimer(after: Self.rootCheckInterval) { [weak self] in
            self?.rootCheckTimer = nil
            self?.checkRoots()
        }
    }

    /// Scans everything again and applies the difference (after lost inotify events or a
    /// folder that changed under the watcher), then watches the folders afresh.
    private func rescan() {
        scan?.cancel()
        let found = ScanCollector()
        scan = BackgroundScan(scanner: scanner, deliver: { [mailbox = loop.mailbox] block in mailbox.post(block) }, onBatch: { batch in
            found.files += batch
        }, onFinish: { [weak self] _ in
            guard let self else { return }
            self.applyScanResult(found.files)
            if let old = self.inotify { self.loop.unwatch(old.fileDescriptor) }
            self.inotify = nil
            self.startWatching()
        })
    }

    /// Makes the list what a full scan found (after a rescan, or after a start from the listing
    /// snapshot: usually no change at all).
    private func applyScanResult(_ files: [ScannedFile]) {
        let changes = photos.diff(against: files)
        for case .removed(let path) in changes { thumbnails.invalidate(path: path) }
        libraryChanged(photos.apply(changes))
    }

    private func startWatching() {
        poller?.stop()
        poller = nil
        if LibraryWatchMode.recommended(for: scanner.roots, mounts: mountTable.currentMounts()) == .polling {
            startPolling(because: "a photo folder is on a network file system, where inotify hears nothing")
            return
        }
        do {
            let watcher = try InotifyWatcher(scanner: scanner)
            try loop.watch(watcher.fileDescriptor) { [weak self] in
                guard let self, let watcher = self.inotify else { return }
                self.apply(watcher.readChanges())
                // A root renamed or deleted away is reported here; note it gone so that its
                // return is seen as a change by the root check (which now polls for it).
                self.roots = RootPresence(roots: self.scanner.roots)
                self.scheduleMissingRootCheck()
            }
            inotify = watcher
        } catch {
            startPolling(because: "inotify is not available (\(error))")
        }
    }

    private func startPolling(because reason: String) {
        logger.notice("library: rescanning every \(Int(libraryPollInterval)) s: \(reason)")
        let baseline = (0..<photos.count).map { photos[$0].file }
        poller = LibraryPoller(scanner: scanner, baseline: baseline, loop: loop, interval: libraryPollInterval) { [weak self] changes in
            self?.apply(changes)
        }
    }

    /// Changes found by inotify or a rescan: cached images of removed photos are dropped.
    private func apply(_ changes: [LibraryChange]) {
        for case .removed(let path) in changes {
            thumbnails.invalidate(path: path)
            albumService.invalidate(path: path)
        }
        libraryChanged(photos.apply(changes))
    }

    private func libraryChanged(_ change: PhotoListChange?) {
        guard let change, !change.isEmpty else { return }
        if change.needsRescan { rescan() }
        grid.itemCount = photos.count
        grid.reloadData()
        album?.reloadData(centeredAt: albumPhotoID.flatMap { photos.index(of: $0) })
        life?.libraryDidChange()
    }

    // MARK: Input

    /// Feeds one platform input event to the UI.
    public func handle(_ event: InputEvent) {
        if let life, !life.filter(event) { return }
        host.handle(event)
    }

    // MARK: Screens

    /// Opens the album at photo `index`: its grid thumbnail at once, then the screen-sized decode
    /// (see AlbumService). The "‹ Grid" button, a swipe down or Escape go back.
    public func openPhoto(at index: Int) {
        guard index >= 0, index < photos.count else { return }
        // Says which photo a tap reached: the e2e calibration and rotation stages check it.
        logger.info("opened photo \(index + 1) of \(photos.count): \(photos[index].path.description)")
        if let album {
            album.setCenterPageIndex(index, animated: false)
            return
        }
        let view = PhotoAlbumView(frame: window.bounds)
        let metrics = chromeMetrics
        view.metrics = metrics
        view.font = grid.font.flatMap { try? Font(path: $0.path, pixelSize: Int(metrics.pixels(18))) }
        view.onClose = { [weak self] in self?.closePhoto() }
        // The filmstrip shows the grid's thumbnails (already decoded) and reorders the same list.
        view.filmstrip.requestedThumbnailEdge = grid.thumbnailEdge
        view.filmstrip.provider = thumbnails
        view.onMovePhoto = { [weak self] from, to in self?.movePhoto(from: from, to: to) }
        view.onPageChange = { [weak self] index in
            guard let self else { return }
            self.albumPhotoID = index < self.photos.count ? self.photos.photos[index].id : nil
            self.updateTiledPhoto()
            self.overlayAlbumPageChanged(index)
        }
        albumService.thumbnailEdge = grid.thumbnailEdge
        albumService.screenSize = window.bounds.size
        window.addSubview(view)
        // The album covers the grid: not drawing it under every album frame halves the work.
        grid.isHidden = true
        // Nor do its thumbnails stay pinned (a screenful is 10-15 MB): they become evictable
        // like cells scrolled away; closing the album asks for them again.
        thumbnails.updateWantedThumbnails([:], edge: grid.thumbnailEdge)
        album = view
        view.show(albumService, at: index)
        window.firstResponder = view
    }

    /// Back to the grid, scrolled to the last photo viewed.
    public func closePhoto() {
        guard let view = album else { return }
        tiledPhoto?.detach()
        tiledPhoto = nil
        albumService.stopAll()
        view.removeFromSuperview()
        album = nil
        grid.isHidden = false
        // The filmstrip may have reordered the photos, and it had the thumbnail service's
        // attention: the grid shows the order now and asks for its thumbnails again.
        grid.reloadData()
        grid.scrollToItem(view.centerPageIndex, animated: false)
        overlayScreenChanged()
    }

    /// How big the album's controls are drawn on this screen: from its millimetres as the screen
    /// reports them (EDID), else as the touch panel over it does (libinput), else its height
    /// (ChromeMetrics).
    public var chromeMetrics: ChromeMetrics {
        ChromeMetrics(screen: window.bounds.size, millimetres: host.display.physicalSize ?? host.touchPanelMillimetres)
    }

    /// Puts the centre photo in tiled mode when it is more than twice the screen (pyramid built
    /// in the background, cached on disk); any other page goes back to the album's own view.
    private func updateTiledPhoto() {
        tiledPhoto?.detach()
        tiledPhoto = nil
        guard let album else { return }
        album.layoutIfNeeded()   // the page must have its final size before the tiles cover it
        guard let page = album.centerPage, album.centerPageIndex < photos.count else { return }
        let path = photos[album.centerPageIndex].path
        guard let size = originalSize(of: path),
              TiledPhotoContent.wantsTiles(imageSize: size, screenSize: window.bounds.size) else { return }
        do {
            let content = try TiledPhotoContent(path: path, cache: cache, pyramids: pyramids, logger: logger,
                                                deliver: { [mailbox = loop.mailbox] block in mailbox.post(block) })
            tiledPhoto = TiledPhotoAttachment(content: content, over: page,
                                              disabling: [page.pinchGestureRecognizer, page.doubleTapRecognizer])
        } catch {
            logger.warning("tiles: \(error); showing the photo whole")
        }
    }

    /// A photo's oriented size: known once its screen decode read the header, else read here
    /// (and kept, so the decode that follows does not read it again).
    private func originalSize(of path: RawPath) -> Size? {
        if let known = originalSizes.size(of: path) { return known }
        guard let info = try? ImageDecoder.probe(path: path) else { return nil }
        originalSizes.record(info.orientedSize, for: path)
        return info.orientedSize
    }

    /// How many decodes the loader started, merged, skipped (for tests and benchmarks).
    public var loaderStatistics: LoaderStatistics { loader.statistics }
    /// Bytes of decoded bitmaps the memory cache holds now (benchmarks).
    public var imageCacheBytes: Int { cache.totalBytes }

    // MARK: Order

    /// A drag moved a photo: the list takes the new order and it is saved.
    public func movePhoto(from: Int, to: Int) {
        photos.move(from: from, to: to)
        customOrder?.save(scanFinished: isScanFinished)
    }

    /// Asks "Reset to name order?" over the grid (a long press on an empty spot of the grid).
    public func confirmResetOrder() {
        guard photos.hasCustomOrder, resetPrompt == nil else { return }
        let prompt = ConfirmPromptView(frame: window.bounds, message: "Reset the photo order to \(photos.order == .dateTaken ? "date" : "name") order?",
                                       confirmTitle: "Reset")
        prompt.font = grid.font
        prompt.onFinish = { [weak self] confirmed in
            self?.resetPrompt = nil
            if confirmed { self?.resetOrder() }
        }
        window.addSubview(prompt)
        window.firstResponder = prompt
        resetPrompt = prompt
    }

    /// Forgets the custom order: back to name (or date) order.
    public func resetOrder() {
        grid.cancelReorder()
        photos.setCustomOrder(nil)
        customOrder?.reset()
        grid.reloadData()
    }

    // MARK: Running

    /// Runs until a quit key (outside kiosk mode), SIGINT or SIGTERM.
    public func run() throws {
        try host.run()
    }

    public func stop() {
        host.stop()
    }

    /// Whether the screen shows everything it is going to show: the scan is done and every
    /// visible thumbnail (or the album's centre photo) has arrived or failed.
    public var isContentLoaded: Bool {
        guard isScanFinished else { return false }
        guard infoOverlay?.isSettled ?? true else { return false }
        if let album { return album.isCenterPageLoaded && (tiledPhoto?.content.isSettled ?? true) }
        return grid.isVisibleContentLoaded
    }

    /// Whether the thumbnails still missing wait for the grid's fling to slow down (loads are
    /// deferred while it is fast): they arrive only once time moves on, not by waiting.
    public var isContentWaitingForMotion: Bool {
        album == nil && thumbnails.isDeferringLoads
    }

    /// Runs the loop until the content is loaded and drawn, or `timeout` seconds pass; true when
    /// settled. Used by the headless screen, snapshots and tests.
    @discardableResult
    public func runUntilSettled(timeout: Double) throws -> Bool {
        try host.run(until: { isContentLoaded }, timeout: timeout)
    }
}
