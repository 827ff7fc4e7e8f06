import Basics
import ArgumentParser
import Imaging
import Logging
import PhotoKioskApp
import Platform
import UI
import Graphics

struct Snapshot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render the grid screen headless into a PNG.",
        discussion: "Waits until every visible thumbnail has been decoded (or failed), then writes the PNG.")

    @OptionGroup var general: GeneralOptions
    @OptionGroup(title: "Photos") var photos: PhotoOptions
    @Option(name: [.customLong("size"), .customLong("mode")],
            help: "Screen size WIDTHxHEIGHT (default: the config's display.mode, else 1920x1080).", transform: ArgumentValues.mode)
    var size: KioskConfig.DisplayMode?
    @Option(parsing: .unconditional, help: "0, 90, 180 or 270: the screen turned as on the frame (default: the config's display.rotation).")
    var rotation: KioskConfig.Rotation?
    @Option(help: "Output PNG.") var out: String
    @Option(parsing: .unconditional, help: "Open the album at photo N (0-based) instead of the grid.", transform: ArgumentValues.wholeNumber) var photo: Int?
    @Option(parsing: .unconditional, help: "Seconds to wait for thumbnails (default: 60).", transform: ArgumentValues.number) var timeout: Double = 60
    @Flag(help: "Do not read or write the thumbnail disk cache.") var noCache = false
    @Flag(help: "Show the slideshow (from its first photo, or --photo N) instead of the grid; as on the frame when the config's idle_timeout is 0.")
    var slideshow = false
    @OptionGroup(title: "Slideshow") var slideshowOptions: SlideshowOptions
    @Option(parsing: .unconditional, help: "Slideshow: the frame this many seconds after the first photo began to fade in, on a virtual clock (exact and repeatable); past the interval it catches the next transition.", transform: ArgumentValues.number)
    var at: Double?
    @Flag(help: "Measure instead: flick through the whole album, print figures (with --photo N: then zoom into photo N and write --out).")
    var flick = false
    @Option(parsing: .unconditional, help: "Seconds between flicks with --flick (default: 0.5).", transform: ArgumentValues.number) var flickInterval: Double = 0.5
    @OptionGroup(title: "Information overlay") var overlay: OverlayOptions
    @Flag(help: "With --photo N: show the album's chrome (indicator, caption, filmstrip) as just after a touch, not faded.")
    var chrome = false
    @Flag(help: "Draw the touch overlay, with two fingers' trails and a gesture label drawn into it.")
    var touchOverlay = false
    @Option(help: "The screen's size in millimetres WIDTHxHEIGHT, as a panel reports it (sizes the controls).", transform: ArgumentValues.mode)
    var millimetres: KioskConfig.DisplayMode?

    /// Mistakes in the call itself, found before anything runs, so the usage shown is this command's.
    func validate() throws {
        if at != nil && !slideshow && general.configFile.config == nil { throw ValidationError("--at needs --slideshow") }
        if let photo, photo < 0 { throw ValidationError("--photo \(photo): photos are numbered from 0") }
        if let at, at < 0 { throw ValidationError("--at \(decimalText(at, places: 3)): the time since the first photo began cannot be negative") }
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0 seconds, not \(decimalText(timeout, places: 3))") }
        guard flickInterval > 0 else { throw ValidationError("--flick-interval must be more than 0 seconds, not \(decimalText(flickInterval, places: 3))") }
    }
    @Option(help: "Show this remote-page address and its QR code where the frame offers one (the no-photos and info screens), as when [remote] listen is set.")
    var pairingUrl: String?
    @Flag(help: "Show the info screen (what a finger held in a corner opens).")
    var infoScreen = false

    mutating func run() throws {
        try OutputPath.checkFolder(of: out, option: "--out")
        // What the frame would show: the named config file (none is read without --config, so
        // a snapshot is the same on every machine) with the flags on top, as `run` resolves it.
        var config = try general.resolvedConfig([photos, slideshowOptions, overlay], readsDefaultFile: false)
        let showsSlideshow = slideshow || config.slideshow.idleTimeout == 0
        if showsSlideshow { config.slideshow.idleTimeout = 0 }
        if at != nil && !showsSlideshow { throw CommandFailure("--at needs the slideshow: --slideshow, or idle_timeout = 0 in the config file") }
        // The headless screen as the frame's: its mode, turned as it is mounted.
        let turned = (rotation ?? config.display.rotation).rawValue % 180 != 0
        let screen = size ?? config.display.mode ?? .init(width: 1920, height: 1080)
        let logical = turned ? KioskConfig.DisplayMode(width: screen.height, height: screen.width) : screen
        let logger = Bootstrap.logger(level: general.logLevel?.loggerLevel ?? .warning)
        let roots = try Bootstrap.photoFolders(config: config, explicit: !photos.folders.isEmpty, logger: logger)
        let loop = try EventLoop(signals: [])
        let display = HeadlessDisplay(width: logical.width, height: logical.height)
        // --at: a virtual clock that moves only while nothing is being decoded, so the frame is exact.
        let clock = at == nil ? nil : ManualClock(now: loop.now)
        if let millimetres { display.physicalSize = Size(width: Double(millimetres.width), height: Double(millimetres.height)) }
        let app = KioskApp(config: config, folders: roots, display: display, loop: loop,
                           thumbnailCacheDirectory: noCache ? nil : Bootstrap.cacheDirectory(config: config), logger: logger,
                           clock: clock)
        if let pairingUrl {
            // The address without the query: what the screen tells a person to type.
            let address = String(pairingUrl.prefix { $0 != "?" })
            app.pairingOffer = PairingOffer(url: pairingUrl, address: address)
        }
        try app.start()
        if let clock, let at {
            return try snapshotSlideshow(app, display: display, clock: clock, at: at, logger: logger)
        }
        if showsSlideshow {
            return try snapshotSlideshow(app, display: display, logger: logger)
        }
        if flick {
            let report = try AlbumFlickMeasurement(app: app, interval: flickInterval).run(zoomPhoto: photo, zoomPNG: out)
            print(report)
            return
        }
        if let photo {
            try app.runUntilSettled(timeout: timeout)
            guard photo < app.photos.count else { throw CommandFailure("--photo \(photo): there \(app.photos.count == 1 ? "is" : "are") only \(counted(app.photos.count, "photo")) (numbered from 0)") }
            app.openPhoto(at: photo)
        }
        if !(try app.runUntilSettled(timeout: timeout)) {
            logger.warning("not every thumbnail arrived within \(timeout) s")
        }
        if chrome, let album = app.album {
            // The filmstrip's thumbnails too (the settled check waits for the photo only).
            if !(try app.host.run(until: { album.filmstrip.isVisibleContentLoaded }, timeout: timeout)) {
                logger.warning("not every filmstrip thumbnail arrived within \(timeout) s")
            }
            album.showChrome()
            app.host.pump()
        }
        if touchOverlay {
            SnapshotTouchDemo.draw(on: app.host)
        }
        if infoScreen {
            app.showInfoScreen()
            app.host.pump()
        }
        try PNGEncoder.write(display.frameBuffer, to: out)
        print(out)
    }

    /// The slideshow as it looks once its photo has faded in fully.
    private func snapshotSlideshow(_ app: KioskApp, display: HeadlessDisplay, logger: Logger) throws {
        try app.runUntilSettled(timeout: timeout)
        guard app.photos.count > 0 else { throw CommandFailure("no photos to show: the folders hold no JPEG, PNG, HEIC/HEIF, AVIF or WebP photo") }
        let first = photo ?? 0
        guard first < app.photos.count else { throw CommandFailure("--photo \(first): there \(app.photos.count == 1 ? "is" : "are") only \(counted(app.photos.count, "photo")) (numbered from 0)") }
        let life = app.startKioskSession(resume: nil, startingSlideshowAt: app.photos[first].path)
        if !(try app.host.run(until: { life.isSlideshowSettled && app.isOverlaySettled }, timeout: timeout)) {
            logger.warning("the slideshow photo did not arrive within \(timeout) s")
        }
        try PNGEncoder.write(display.frameBuffer, to: out)
        print(out)
    }

    /// The slideshow `at` seconds after its first photo began to come in (mid-fade, mid-slide,
    /// mid-Ken-Burns). The virtual clock moves a frame at a time, and stands still while a photo
    /// is decoded or composed, so the same options always give the same picture.
    private func snapshotSlideshow(_ app: KioskApp, display: HeadlessDisplay, clock: ManualClock, at: Double,
                                   logger: Logger) throws {
        let giveUp = app.host.loop.now + timeout
        func run(until isDone: () -> Bool, moving: Bool, busy: () -> Bool) throws {
            app.host.pump()
            while !isDone() {
                guard app.host.loop.now < giveUp else { throw CommandFailure("the slideshow did not get there within \(timeout) s") }
                let waiting = busy()
                try app.host.loop.runOnce(timeout: waiting || !moving ? 0.02 : 0)
                if moving && !waiting { clock.advance(by: 1.0 / 60) }
                app.host.pump()
            }
        }
        try run(until: { app.isContentLoaded }, moving: false, busy: { true })
        guard app.photos.count > 0 else { throw CommandFailure("no photos to show: the folders hold no JPEG, PNG, HEIC/HEIF, AVIF or WebP photo") }
        let first = photo ?? 0
        guard first < app.photos.count else { throw CommandFailure("--photo \(first): there \(app.photos.count == 1 ? "is" : "are") only \(counted(app.photos.count, "photo")) (numbered from 0)") }
        let life = app.startKioskSession(resume: nil, startingSlideshowAt: app.photos[first].path)
        try run(until: { life.slideshowView?.photo != nil }, moving: false, busy: { true })
        let end = clock.now + at
        try run(until: { clock.now >= end - 1e-9 && app.isOverlaySettled }, moving: true,
                busy: { life.isPreparing || !app.isOverlaySettled })
        try PNGEncoder.write(display.frameBuffer, to: out)
        print(out)
    }
}
