import Graphics
import Imaging
import Logging
import Platform
import UI
import Widgets

/// The composition root: builds the parts (ScreenHost, ImagePipeline, LibraryWatcher,
/// AlbumPresenter, PhotoOrderEditor, the overlay; KioskSessionDriver when started) and connects
/// them. Everything runs on the loop thread except decoding and scanning (`EventLoop.post`).
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
    /// Opens and closes the album over the grid.
    let albumPresenter: AlbumPresenter
    /// The one clip playing at a time, in the album or the slideshow (see ClipPlayback).
    let clips: ClipPlayback
    /// Which JPEGs are Motion Photos (the album's holds, the slideshow's motion).
    let motionPhotos: MotionPhotoLookup
    /// The full-screen album, while open.
    public var album: PhotoAlbumView? { albumPresenter.album }
    /// The person's own photo order: drags and the reset prompt.
    let orderEditor: PhotoOrderEditor
    /// Library updates wait while a thumbnail is carried in the grid (LibraryUpdateHold).
    let libraryHold: LibraryUpdateHold
    /// Where that order is kept; nil when there is no state directory.
    public var customOrder: CustomOrderStore? { orderEditor.customOrder }
    /// Slideshow, screen schedule and resume state (KioskApp+SessionDriver.swift); nil until started.
    public internal(set) var sessionDriver: KioskSessionDriver?
    /// Tells when the wall clock is set (KioskApp+WallClock.swift); nil on a virtual clock or
    /// where the kernel cannot tell (then the schedule re-reads the clock every few minutes).
    public internal(set) var wallClockWatch: WallClockWatch?

    private let loop: EventLoop
    /// config.toml, the command line and the settings file; changed by `applySettings` only.
    public internal(set) var config: KioskConfig
    /// Called after `applySettings`, for parts the CLI holds (the touch lab's toggle).
    public var onSettingsApplied: ((KioskConfig) -> Void)?
    let logger: Logger
    let loader: ImageLoader
    let cache: ImageCache
    /// Inotify, the poller and the mount table: rescans after the first scan.
    let libraryWatcher: LibraryWatcher
    /// Live Photo pairs' content identifiers compared off the loop; pairs that differ are split.
    let livePhotoConfirmation: LivePhotoConfirmation
    public private(set) var isScanFinished = false
    /// The folders the library shows now (the start's, then as photo sources come and go).
    public internal(set) var libraryFolders: [String]
    /// Folders set while the first scan still ran: they take over once it has finished.
    var pendingRoots: [String]?
    /// Where the custom order and the photo sources' folders are; nil: none (this run only).
    let stateDirectory: String?
    /// The scan waits after its first batch until that screen's thumbnails are in.
    let firstScreen: FirstScreenWait
    /// What the start made of the library's listing snapshot (nil: none kept, or not known yet):
    /// set before the first batch goes in, and again when the scan ends.
    public private(set) var listingSnapshotUse: SnapshotUse?
    public var resetPrompt: ConfirmPromptView? { orderEditor.resetPrompt }
    /// Photos over twice the screen size show as tiles over their album page (Tiles/).
    public var tiledPhoto: TiledPhotoAttachment? { albumPresenter.tiledPhoto }
    /// What is wrong and what to do, instead of a blank screen, while there is no photo.
    let noPhotosScreen: NoPhotosScreen
    /// Whether the no-photos screen is up.
    public var isShowingNoPhotosScreen: Bool { noPhotosScreen.isShown }
    /// The no-photos screen's view, while shown (tests read its words and where its code is).
    public var noPhotosView: NoticeScreenView? { noPhotosScreen.view }
    /// Why the library is empty, as the no-photos screen says it; nil while there are photos.
    public var emptyLibraryDiagnosis: EmptyLibraryDiagnosis? { noPhotosScreen.diagnosis }
    /// The remote page's address (and pairing token) for the phone, shown on the frame's own
    /// screens; nil while the page is off.
    public var pairingOffer: PairingOffer? {
        get { noPhotosScreen.pairing }
        set {
            noPhotosScreen.pairing = newValue
            infoScreen.pairing = newValue
        }
    }
    /// Makes a new pairing token (signing out every phone) and returns the new offer; set by
    /// whoever runs the remote page. The info screen's "New code" calls it.
    public var makeNewPairingCode: (() -> PairingOffer?)? {
        get { infoScreen.makeNewCode }
        set {
            infoScreen.makeNewCode = newValue.map { make in
                { [weak self] in
                    let offer = make()
                    if let offer { self?.noPhotosScreen.pairing = offer }
                    return offer
                }
            }
        }
    }
    /// The frame's details and pairing code, opened by holding a finger in a corner.
    let infoScreen: InfoScreen
    let cornerHold: CornerHold
    /// The info screen's view, while open (tests press its buttons and read its code).
    public var infoView: NoticeScreenView? { infoScreen.view }
    /// Opens the info screen (a finger held in a corner does; snapshots and tests call it).
    public func showInfoScreen() { infoScreen.show() }
    public func closeInfoScreen() { infoScreen.close() }
    /// The clock and photo details over the album and slideshow (Overlay/); nil when `[overlay]` is all off.
    var infoOverlay: InfoOverlay?
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
                clock: (any UIClock)? = nil, startup: LibraryStartup? = nil) {
        HeapTuning.apply()
        self.config = config
        self.loop = loop
        self.logger = logger
        libraryFolders = folders
        self.stateDirectory = stateDirectory
        // The scan first (unless the caller started it even earlier): it runs while the rest of
        // the app is built.
        let startup = startup ?? LibraryStartup(folders: folders, config: config, loop: loop, logger: logger,
                                                screenSize: display.size,
                                                snapshot: thumbnailCacheDirectory.map { ListingSnapshotStore(directory: $0, logger: logger) })
        let intake = startup.intake
        host = ScreenHost(display: display, loop: loop, logger: logger, clock: clock)
        host.allowsQuit = !config.kiosk
        let photos = PhotoList(order: config.library.sort == .date ? .dateTaken : .name)
        self.photos = photos
        libraryWatcher = LibraryWatcher(startup: startup, photos: photos, loop: loop, logger: logger)
        livePhotoConfirmation = LivePhotoConfirmation(mailbox: loop.mailbox)
        let customOrder = stateDirectory.map { CustomOrderStore(stateDirectory: $0, photos: photos, logger: logger) }
        customOrder?.load()
        let images = ImagePipeline(config: config, thumbnailCacheDirectory: thumbnailCacheDirectory,
                                   mailbox: loop.mailbox, logger: logger)
        cache = images.cache
        loader = images.loader
        thumbnails = ThumbnailService(photos: photos, loader: loader, cache: cache, logger: logger,
                                      clipDurations: images.clipDurations)
        albumService = AlbumService(photos: photos, loader: loader, cache: cache, sizes: images.originalSizes,
                                    screenSize: display.size, thumbnailEdge: 240, logger: logger)

        grid = ThumbnailGridView(frame: Rect(size: display.size))
        grid.fitsRowsToHeight = true
        grid.font = try? Font.standard(pixelSize: 14)
        grid.provider = thumbnails
        host.window.addSubview(grid)
        clips = ClipPlayback(mailbox: loop.mailbox, logger: logger)
        clips.sound = config.sound.output
        motionPhotos = MotionPhotoLookup(mailbox: loop.mailbox)
        albumPresenter = AlbumPresenter(host: host, grid: grid, photos: photos, thumbnails: thumbnails,
                                        albumService: albumService, cache: cache,
                                        pyramids: thumbnailCacheDirectory.map { PyramidCache(directory: $0 + "/pyramids") },
                                        originalSizes: images.originalSizes, clips: clips, motionPhotos: motionPhotos,
                                        mailbox: loop.mailbox, logger: logger)
        orderEditor = PhotoOrderEditor(customOrder: customOrder, photos: photos, grid: grid, window: host.window)
        libraryHold = LibraryUpdateHold(while: { [weak grid] in grid?.isReordering ?? false })
        noPhotosScreen = NoPhotosScreen(host: host, folders: folders, logger: logger)
        infoScreen = InfoScreen(host: host, logger: logger)
        cornerHold = CornerHold(loop: loop)
        firstScreen = FirstScreenWait(gate: startup.firstScreenShown, loop: loop,
                                      isComplete: { [weak grid] in grid?.isVisibleContentLoaded ?? true })
        // A result goes straight to the views that wanted it (no trip back through the cache).
        thumbnails.onChange = { [weak self] index, state in
            self?.grid.thumbnailDidChange(at: index, to: state)
            self?.album?.filmstrip.thumbnailDidChange(at: index, to: state)
            self?.firstScreen.thumbnailArrived()
        }
        thumbnails.onLoadsDeferred = { [loader] deferred in deferred ? loader.pause() : loader.resume() }
        albumService.onChange = { [weak albumPresenter] index, content in albumPresenter?.photoDidChange(at: index, to: content) }
        albumService.captions = AlbumCaptions(mailbox: loop.mailbox, usesFileNames: config.library.fileNameCaptions)
        albumService.onCaptionChange = { [weak self] index in self?.album?.captionDidChange(at: index) }
        albumPresenter.onMovePhoto = { [weak orderEditor] from, to in orderEditor?.movePhoto(from: from, to: to) }
        albumPresenter.onPageChange = { [weak self] index in self?.overlayAlbumPageChanged(index) }
        albumPresenter.onClose = { [weak self] in self?.overlayScreenChanged() }
        intake.apply = { [weak self] batch in
            self?.libraryHold.run { [weak self] in
                guard let self else { return }
                self.libraryChanged(self.photos.add(self.libraryWatcher.settled(batch)))
            }
        }
        intake.reconcile = { [weak self] found in
            self?.libraryHold.run { [weak self] in
                guard let self else { return }
                self.applyScanResult(self.libraryWatcher.settled(found))
            }
        }
        intake.onFinish = { [weak self] summary in self?.libraryHold.run { [weak self] in self?.scanDidFinish(summary) } }
        intake.onFirstShown = { [weak firstScreen] in firstScreen?.firstBatchDrawn() }
        intake.onSnapshotUse = { [weak self] use in self?.listingSnapshotUse = use }
        livePhotoConfirmation.onRefused = { [weak self] pair in
            self?.libraryHold.run { [weak self] in
                guard let self else { return }
                self.logger.info("library: \(pair.still) and \(pair.clip) have different Live Photo identifiers: two items")
                self.libraryChanged(self.photos.refusePair(pair))
            }
        }
        libraryWatcher.onChanges = { [weak self] changes in self?.libraryHold.run { [weak self] in self?.apply(changes) } }
        libraryWatcher.onRescanned = { [weak self] found in self?.libraryHold.run { [weak self] in self?.applyScanResult(found) } }
        grid.onSelect = { [weak self] index in self?.openPhoto(at: index) }
        grid.onMove = { [weak orderEditor] from, to in orderEditor?.movePhoto(from: from, to: to) }
        grid.onReorderEnd = { [weak libraryHold] in libraryHold?.release() }
        grid.onLongPressEmptyArea = { [weak orderEditor] _ in orderEditor?.confirmResetOrder() }
        orderEditor.isScanFinished = { [weak self] in self?.isScanFinished ?? false }
        host.onUnhandledKey = { [weak self] key in
            guard key == .escape else { return }
            if self?.infoScreen.isShown ?? false { self?.infoScreen.close() } else { self?.closePhoto() }
        }
        applyGridMetrics()
        noPhotosScreen.metrics = { [weak albumPresenter] in albumPresenter?.chromeMetrics ?? ChromeMetrics() }
        noPhotosScreen.rescan = { [weak libraryWatcher] in libraryWatcher?.rescan() }
        infoScreen.metrics = noPhotosScreen.metrics
        infoScreen.libraryLines = { [weak self] in
            guard let self else { return [] }
            let count = self.photos.count
            let photos = count == 1 ? "1 photo" : "\(count) photos"
            return ["\(photos) from \(folders.joined(separator: ", "))."]
        }
        cornerHold.screen = { [weak self] in
            guard let self else { return (Size(width: 0, height: 0), ChromeMetrics()) }
            return (self.window.bounds.size, self.albumPresenter.chromeMetrics)
        }
        cornerHold.onHold = { [weak self] cancel in
            guard let self else { return }
            for event in cancel { self.host.handle(event) }
            self.infoScreen.show()
        }
        host.onResize = { [weak self] size in
            self?.grid.frame = Rect(size: size)
            self?.applyGridMetrics()
            self?.noPhotosScreen.resize(to: size)
            self?.infoScreen.resize(to: size)
            self?.albumPresenter.screenResized(to: size)
            self?.infoOverlay?.resize(to: size)
        }
        infoOverlay = makeInfoOverlay()
        if !host.isOnVirtualClock { startWallClockWatch() }
    }

    deinit {
        loader.shutdown()
    }

    /// Thumbnails in points (`library.thumbnail_size`, 1/160 inch where the screen reports its
    /// size: ChromeMetrics), so a 7-inch panel and a TV both get a sensible number of columns.
    private func applyGridMetrics() {
        let metrics = albumPresenter.chromeMetrics
        grid.preferredCellSize = Double(config.library.thumbnailSize) * metrics.scale
        grid.spacing = max(2, metrics.pixels(8))
    }

    /// Starts display events. (The library scan already runs: `init` starts it, so listing the
    /// folders overlaps building the app; its batches go into the grid as the loop runs.)
    public func start() throws { try host.attachDisplay() }

    private func scanDidFinish(_ summary: LibraryScanner.Summary) {
        isScanFinished = true
        listingSnapshotUse = summary.snapshotUse
        logger.info("library: \(counted(summary.fileCount, "photo")) in \(counted(summary.directoryCount, "folder"))")
        libraryWatcher.beginWatching()
        if let pendingRoots {
            self.pendingRoots = nil
            libraryWatcher.changeRoots(to: pendingRoots.map { RawPath($0) })
        }
        sessionDriver?.libraryDidChange()
        noPhotosScreen.update(hasPhotos: photos.count > 0)
    }

    /// Makes the list what a full scan found (after a rescan, or after a start from the listing
    /// snapshot: usually no change at all).
    private func applyScanResult(_ files: [ScannedFile]) {
        let changes = photos.diff(against: files)
        for case .removed(let path) in changes { thumbnails.invalidate(path: path) }
        libraryChanged(photos.apply(changes))
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
        if change.needsRescan { libraryWatcher.rescan() }
        let pairs = photos.takeUnconfirmedPairs()
        if !pairs.isEmpty { livePhotoConfirmation.check(pairs) }
        grid.itemCount = photos.count
        grid.reloadData()
        albumPresenter.libraryDidChange()
        sessionDriver?.libraryDidChange()
        if isScanFinished { noPhotosScreen.update(hasPhotos: photos.count > 0) }
    }

    /// Feeds one platform input event to the UI.
    public func handle(_ event: InputEvent) {
        guard cornerHold.observe(event) else { return }
        if let sessionDriver, !sessionDriver.filter(event) { return }
        host.handle(event)
    }

    /// Opens the album at photo `index` (AlbumPresenter); the "‹ Grid" button, a swipe down or
    /// Escape go back.
    public func openPhoto(at index: Int) { albumPresenter.openPhoto(at: index) }

    /// Back to the grid, scrolled to the last photo viewed.
    public func closePhoto() { albumPresenter.closePhoto() }

    /// How big the album's controls are drawn on this screen (AlbumPresenter).
    public var chromeMetrics: ChromeMetrics { albumPresenter.chromeMetrics }

    /// A drag moved a photo: the list takes the new order and it is saved.
    public func movePhoto(from: Int, to: Int) { orderEditor.movePhoto(from: from, to: to) }

    /// Asks "Reset to name order?" over the grid (a long press on an empty spot of the grid).
    public func confirmResetOrder() { orderEditor.confirmResetOrder() }

    /// Forgets the custom order: back to name (or date) order.
    public func resetOrder() { orderEditor.resetOrder() }

    /// Runs until a quit key (outside kiosk mode), SIGINT or SIGTERM.
    public func run() throws { try host.run() }

    public func stop() { host.stop() }
}
