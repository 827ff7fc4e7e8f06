import TestSupport
import Testing
import Glibc
import Graphics
import Imaging
import Platform
@testable import PhotoKioskApp

/// Settings from the phone page reach the running app at once, through the same door as the
/// remote's other commands (`KioskApp.perform(.settings)`), without a restart.
@Suite struct KioskSettingsApplyTests {
    /// The folders a test makes, removed after it.
    let scratch = ScratchDirectory()

    func makeApp(interval: Double = 30) throws -> (KioskApp, KioskSessionDriver) {
        let dir = scratch.newFolder("settings")
        for (i, color) in [Color.red, .green, .blue].enumerated() {
            let b = Bitmap(width: 160, height: 100)
            Canvas(target: b).clear(color)
            try FileReader.write(try JPEGEncoder.encode(b, options: .init(quality: 90)), to: dir + "/photo\(i).jpg")
            // Modification times against the name order, so date order is the reverse.
            var times = [timespec(tv_sec: 1_000_000 - i * 1000, tv_nsec: 0), timespec(tv_sec: 1_000_000 - i * 1000, tv_nsec: 0)]
            _ = utimensat(AT_FDCWD, dir + "/photo\(i).jpg", &times, 0)
        }
        var config = KioskConfig()
        config.slideshow.idleTimeout = 0
        config.slideshow.interval = interval
        config.slideshow.transition = .none
        let app = KioskApp(config: config, folders: [dir], display: HeadlessDisplay(width: 320, height: 240),
                           loop: try EventLoop(signals: []), thumbnailCacheDirectory: nil, logger: .init(label: "test"))
        try app.start()
        let life = app.startKioskSession(resume: nil, seed: 1)
        try #require(try app.host.run(until: { life.isSlideshowSettled && app.photos.count == 3 }, timeout: 30))
        return (app, life)
    }

    func changed(_ app: KioskApp, _ json: String) throws -> KioskConfig {
        try app.config.applying(settings: try JSONReader.table(from: Array(json.utf8)), source: "request")
    }

    @Test func theIntervalOrderAndSlideOptionsApplyToTheRunningSlideshow() throws {
        let (app, life) = try makeApp(interval: 30)
        let shownAt = try #require(life.session.slideshow.shownAt)
        #expect(life.nextTimerDeadline.map { abs($0 - (shownAt + 30)) < 0.01 } == true)
        let next = try changed(app, #"{"slideshow": {"interval": 2, "order": "shuffle", "ken_burns": true, "pair_portraits": true}}"#)
        let appliedAt = app.window.scheduler.now
        #expect(app.perform(.settings(next)) == .done)
        #expect(app.config == next)
        #expect(life.session.slideshow.settings.interval == 2)
        #expect(life.session.slideshow.sequencer.order == .shuffle)
        #expect(life.session.slideshow.settings.kenBurns && life.session.slideshow.settings.pairPortraits)
        // (On a loaded machine more than 2 s may have passed since the photo appeared: then at once.)
        let expected = max(shownAt + 2, appliedAt)
        #expect(life.nextTimerDeadline.map { abs($0 - expected) < 0.05 } == true, "the timer follows the new interval at once")
        // And the slideshow does move on after the new interval, not the old one.
        let first = life.session.slideshow.sequencer.current
        #expect(try app.host.run(until: { life.session.slideshow.sequencer.current != first }, timeout: 25))
        #expect(app.window.scheduler.now - shownAt < 30, "moved on by the new interval, before the old one's 30 s")
    }

    @Test func theOverlayTheScheduleTheSortAndKioskModeApplyAtOnce() throws {
        let (app, life) = try makeApp()
        #expect(app.infoOverlay == nil)
        #expect(app.host.allowsQuit)
        #expect(app.photos.photos.map(\.path.lastComponentString) == ["photo0.jpg", "photo1.jpg", "photo2.jpg"])
        let next = try changed(app, """
            {"overlay": {"clock": "top-left"}, "kiosk": true, "library": {"sort": "date"},
             "schedule": {"period": [{"days": ["daily"], "off": "00:00", "on": "23:59"}], "wake_minutes": 0}}
            """)
        #expect(app.perform(.settings(next)) == .done)
        let overlay = try #require(app.infoOverlay, "the clock asked for: an overlay now")
        #expect(overlay.mode == .slideshow && !overlay.view.isHidden)
        #expect(!app.host.allowsQuit, "kiosk mode: no quit key")
        #expect(app.photos.photos.map(\.path.lastComponentString) == ["photo2.jpg", "photo1.jpg", "photo0.jpg"], "date order (oldest first)")
        #expect(life.session.power.schedule.periods.count == 1)
        #expect(life.session.power == ScreenPower(config: next.schedule), "the new schedule and wake minutes")
        #expect(!life.session.screenOn, "off now: the new period covers the whole day")
        // Back: the overlay goes away, the quit key and name order return.
        var back = next
        back.overlay = .init()
        back.kiosk = false
        back.library.sort = .name
        #expect(app.perform(.settings(back)) == .done)
        #expect(app.infoOverlay == nil)
        #expect(overlay.view.superview == nil, "the old overlay's view is gone from the screen")
        #expect(app.host.allowsQuit)
        #expect(app.photos.photos.map(\.path.lastComponentString) == ["photo0.jpg", "photo1.jpg", "photo2.jpg"])
    }
}

private extension RawPath {
    var lastComponentString: String { String(decoding: lastComponent, as: UTF8.self) }
}
