import Graphics
import Imaging
import Platform
import Testing
import TestSupport
import UI
@testable import PhotoKioskApp
import Widgets

/// The information overlay in the running app: what each corner shows for photos with EXIF,
/// XMP and IPTC the test writes, the album's fade, the slideshow's steady overlay, the clock.
@Suite struct InfoOverlayTests {
    let scratch = ScratchDirectory()
    static let bright = Color(rgb: 0xF0F0E0)

    /// Two bright photos: one with EXIF (caption, date, GPS near Bled), one with only XMP.
    func makeFolder() throws -> String {
        let bitmap = Bitmap(width: 320, height: 200)
        Canvas(target: bitmap).clear(Self.bright)
        let exif = TIFFBuilder(dateTimeOriginal: "2023:08:14 18:22:05", imageDescription: Array("Lake Bled at dusk".utf8),
                               gps: (latitude: 46.3683, longitude: 14.1136)).build()
        scratch.file("photos/a.jpg", bytes: try JPEGEncoder.encode(bitmap, options: .init(markers: [.exif(tiff: exif)])))
        scratch.file("photos/b.jpg", bytes: try JPEGEncoder.encode(bitmap, options: .init(markers: [
            MetadataFixtures.xmp(title: "Only XMP", description: nil),
        ])))
        return scratch["photos"].description
    }

    func overlayConfig() -> KioskConfig {
        var config = KioskConfig()
        config.library.thumbnailSize = 190
        config.overlay.clock = .topRight
        config.overlay.dateTaken = .bottomLeft
        config.overlay.caption = .bottomLeft
        config.overlay.place = .bottomRight
        return config
    }

    func makeApp(_ config: KioskConfig, clock: ManualClock? = nil) throws -> (KioskApp, HeadlessDisplay) {
        let display = HeadlessDisplay(width: 800, height: 600)
        let loop = try EventLoop(signals: [])
        let app = KioskApp(config: config, folders: [try makeFolder()], display: display, loop: loop,
                           thumbnailCacheDirectory: nil, logger: .init(label: "test"), clock: clock)
        app.localeTimeFormat = try #require(LocaleTimeFormat(named: "C"))
        app.wallClock = { LocalDateTime(year: 2026, month: 11, day: 26, hour: 14, minute: 5, second: 30) }
        try app.start()
        return (app, display)
    }

    /// Runs the loop until `done` (results arriving through the mailbox) without moving the
    /// virtual clock, so the album's fade waits for the test (`runUntilSettled` would wait for it).
    func wait(_ app: KioskApp, until done: () -> Bool) throws -> Bool {
        for _ in 0..<400 where !done() {
            try app.host.loop.runOnce(timeout: 0.05)
            app.host.pump()
        }
        return done()
    }

    func texts(_ overlay: InfoOverlay, _ corner: InfoOverlayView.Corner) -> [String] {
        overlay.view.lines(in: corner).map(\.text)
    }

    @Test func albumShowsThePhotosDetailsInTheirCornersThenFades() throws {
        let clock = ManualClock()
        let (app, display) = try makeApp(overlayConfig(), clock: clock)
        #expect(try app.runUntilSettled(timeout: 20))
        let overlay = try #require(app.infoOverlay)
        #expect(overlay.view.isHidden, "nothing over the grid")

        app.openPhoto(at: 0)
        #expect(try wait(app) { app.album?.isCenterPageLoaded == true && app.isOverlaySettled })
        #expect(texts(overlay, .topRight) == ["14:05", "Thursday 11/26/2026"])
        #expect(texts(overlay, .bottomLeft) == ["08/14/2023", "Lake Bled at dusk"])
        #expect(texts(overlay, .bottomRight) == ["Bled, Slovenia"])
        #expect(texts(overlay, .topLeft).isEmpty)
        #expect(app.window.subviews.last === overlay.view, "above the album")
        // The backing darkens the bright photo under the text block: readable white text.
        let block = try #require(overlay.view.blockFrame(in: .bottomLeft))
        let under = display.frameBuffer.color(x: Int(block.maxX) - 3, y: Int(block.minY) + 3)
        #expect(Int(under.red) < Int(Self.bright.red) - 60, "\(under)")

        // Paging to a photo with only XMP: its caption, no date or place.
        app.album?.setCenterPageIndex(1, animated: false)
        #expect(try wait(app) { app.album?.isCenterPageLoaded == true && app.isOverlaySettled })
        #expect(texts(overlay, .bottomLeft) == ["Only XMP"])
        #expect(texts(overlay, .bottomRight).isEmpty)

        // It fades with the album's chrome, and its clock stops while invisible.
        #expect(overlay.view.opacity == 1 && overlay.isClockArmed)
        clock.advance(by: PhotoAlbumView.chromeVisibleDuration + 0.01)
        app.host.pump()
        #expect(overlay.view.opacity == 1 && overlay.isFading)
        clock.advance(by: InfoOverlay.fadeDuration + 0.01)
        app.host.pump()
        #expect(overlay.view.opacity < 0.01)
        #expect(!overlay.isClockArmed)

        app.closePhoto()
        #expect(overlay.view.isHidden)
    }

    @Test func theClockFollowsTheWallClockEachMinute() throws {
        let clock = ManualClock()
        let (app, _) = try makeApp(overlayConfig(), clock: clock)
        var now = LocalDateTime(year: 2026, month: 11, day: 26, hour: 23, minute: 59, second: 59)
        app.wallClock = { now }
        #expect(try app.runUntilSettled(timeout: 20))
        app.openPhoto(at: 0)
        #expect(try wait(app) { app.isOverlaySettled })
        let overlay = try #require(app.infoOverlay)
        #expect(texts(overlay, .topRight) == ["23:59", "Thursday 11/26/2026"])
        now = LocalDateTime(year: 2026, month: 11, day: 27, hour: 0, minute: 0, second: 0)
        clock.advance(by: 1.1)   // the timer is due one second after 23:59:59
        app.host.pump()
        #expect(texts(overlay, .topRight) == ["00:00", "Friday 11/27/2026"])
    }

    @Test func slideshowKeepsTheOverlayAboveItsPhoto() throws {
        var config = overlayConfig()
        config.slideshow.idleTimeout = 0
        config.slideshow.transitionDuration = 0.1
        let (app, _) = try makeApp(config)
        #expect(try app.runUntilSettled(timeout: 20))
        // From the album, whose fade is pending: the slideshow takes the overlay over and keeps it.
        app.openPhoto(at: 1)
        #expect(app.infoOverlay?.isFading == true)
        let life = app.startKioskSession(resume: nil, seed: 1)
        #expect(try app.host.run(until: { life.isSlideshowSettled && app.isOverlaySettled }, timeout: 20))
        let overlay = try #require(app.infoOverlay)
        let slideshow = try #require(life.slideshowView)
        let order = app.window.subviews
        #expect(order.firstIndex(where: { $0 === overlay.view })! > order.firstIndex(where: { $0 === slideshow })!)
        #expect(!overlay.view.isHidden, "the screens beneath are hidden, not the overlay")
        #expect(texts(overlay, .bottomLeft) == ["08/14/2023", "Lake Bled at dusk"])
        #expect(overlay.view.opacity == 1 && !overlay.isFading, "it stays")
    }

    @Test func allPartsOffMakesNoOverlay() throws {
        let (app, _) = try makeApp(KioskConfig())
        #expect(app.infoOverlay == nil)
        #expect(!app.window.subviews.contains(where: { $0 is InfoOverlayView }))
    }
}
