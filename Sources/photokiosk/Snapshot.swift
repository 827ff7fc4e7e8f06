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

    @Option(name: [.customLong("photos"), .customLong("folder")], help: "A photo folder (repeatable; default: the bundled samples).")
    var folders: [String] = []
    @Option(help: "Screen size WIDTHxHEIGHT.") var size: KioskConfig.DisplayMode = .init(width: 1920, height: 1080)
    @Option(help: "Output PNG.") var out: String
    @Option(help: "Thumbnail edge in points (1/160 inch on a screen that reports its size; default 140).") var thumbnailSize: Int?
    @Option(help: "Open the album at photo N (0-based) instead of the grid.") var photo: Int?
    @Option(help: "Seconds to wait for thumbnails.") var timeout: Double = 60
    @Flag(help: "Do not read or write the thumbnail disk cache.") var noCache = false
    @Flag(help: "Show the slideshow (from its first photo, or --photo N) instead of the grid.") var slideshow = false
    @Option(help: "Slideshow: blur, solid or none beside portrait photos.") var portraitFill: KioskConfig.PortraitFill?
    @Flag(help: "Slideshow: the slow pan and zoom (Ken Burns).") var kenBurns = false
    @Flag(help: "Slideshow: two portrait photos side by side (landscape ones stacked on a portrait screen).") var pairPortraits = false
    @Option(help: "Slideshow: crossfade, slide or none.") var transition: KioskConfig.Transition?
    @Option(help: "Slideshow: seconds between photos (with --at).") var interval: Double?
    @Option(help: "Slideshow: the frame this many seconds after the first photo began to fade in, on a virtual clock (exact and repeatable); past the interval it catches the next transition.")
    var at: Double?
    @Flag(help: "Measure instead: flick through the whole album, print figures (with --photo N: then zoom into photo N and write --out).")
    var flick = false
    @Option(help: "Seconds between flicks with --flick.") var flickInterval: Double = 0.5
    @Option(help: "Memory for decoded images, MB (default: follows the machine's memory, as on a frame).")
    var cacheMemoryMb: Int?
    @OptionGroup(title: "Information overlay") var overlay: OverlayOptions
    @Flag(help: "With --photo N: show the album's chrome (indicator, caption, filmstrip) as just after a touch, not faded.")
    var chrome = false
    @Flag(help: "Draw the touch overlay, with two fingers' trails and a gesture label drawn into it.")
    var touchOverlay = false
    @Option(help: "The screen's size in millimetres WIDTHxHEIGHT, as a panel reports it (sizes the controls).")
    var millimetres: KioskConfig.DisplayMode?

    @Option(help: "Show this remote-page address and its QR code where the frame offers one (the no-photos and info screens), as when [remote] listen is set.")
    var pairingUrl: String?
    @Flag(help: "Show the info screen (what a finger held in a corner opens).")
    var infoScreen = false

    mutating func run() throws {
        var config = KioskConfig()
        if !folders.isEmpty { config.library.folders = folders }
        if let thumbnailSize { config.library.thumbnailSize = thumbnailSize }
        if slideshow { config.slideshow.idleTimeout = 0 }
        if let portraitFill { config.slideshow.portraitFill = portraitFill }
        config.slideshow.kenBurns = kenBurns
        config.slideshow.pairPortraits = pairPortraits
        if let transition { config.slideshow.transition = transition }
        if let interval { config.slideshow.interval = interval }
        if let (key, problem) = config.firstProblem() { throw ValidationError("\(key): \(problem)") }
        if at != nil && !slideshow { throw ValidationError("--at needs --slideshow") }
        if let cacheMemoryMb { config.cache.memoryMB = cacheMemoryMb }
        var overlayFlags = KioskConfigOverrides()
        try overlay.apply(to: &overlayFlags)
        config = try config.applying(overlayFlags)
        let logger = Bootstrap.logger(level: .warning)
        let roots = try Bootstrap.photoFolders(config: config, explicit: !folders.isEmpty, logger: logger)
        let loop = try EventLoop(signals: [])
        let display = HeadlessDisplay(width: size.width, height: size.height)
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
        if slideshow {
            return try snapshotSlideshow(app, display: display, logger: logger)
        }
        if flick {
            let report = try AlbumFlickMeasurement(app: app, interval: flickInterval).run(zoomPhoto: photo, zoomPNG: out)
            print(report)
            return
        }
        if let photo {
            try app.runUntilSettled(timeout: timeout)
            guard photo < app.photos.count else { throw ValidationError("--photo \(photo): only \(app.photos.count) photos") }
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
        guard app.photos.count > 0 else { throw ValidationError("no photos to show") }
        let first = photo ?? 0
        guard first < app.photos.count else { throw ValidationError("--photo \(first): only \(app.photos.count) photos") }
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
                guard app.host.loop.now < giveUp else { throw ValidationError("the slideshow did not get there within \(timeout) s") }
                let waiting = busy()
                try app.host.loop.runOnce(timeout: waiting || !moving ? 0.02 : 0)
                if moving && !waiting { clock.advance(by: 1.0 / 60) }
                app.host.pump()
            }
        }
        try run(until: { app.isContentLoaded }, moving: false, busy: { true })
        guard app.photos.count > 0 else { throw ValidationError("no photos to show") }
        let first = photo ?? 0
        guard first < app.photos.count else { throw ValidationError("--photo \(first): only \(app.photos.count) photos") }
        let life = app.startKioskSession(resume: nil, startingSlideshowAt: app.photos[first].path)
        try run(until: { life.slideshowView?.photo != nil }, moving: false, busy: { true })
        let end = clock.now + at
        try run(until: { clock.now >= end - 1e-9 && app.isOverlaySettled }, moving: true,
                busy: { life.isPreparing || !app.isOverlaySettled })
        try PNGEncoder.write(display.frameBuffer, to: out)
        print(out)
    }
}
