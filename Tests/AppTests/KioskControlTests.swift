import Testing
import Graphics
import Imaging
import Platform
@testable import PhotoKioskApp
import TestSupport

/// The door for remote requests: next / previous / pause / resume / screen / slideshow, the
/// status they leave, and the rules underneath (history for a step back, a requested screen
/// state holding until the schedule changes).
@Suite struct KioskControlTests {
    let photos: [RawPath] = ["/p/a.jpg", "/p/b.jpg", "/p/c.jpg", "/p/d.jpg"]

    func running(_ order: KioskConfig.SlideshowOrder, seed: UInt64 = 3) -> SlideshowController {
        var settings = KioskConfig.Slideshow()
        settings.idleTimeout = 0
        settings.interval = 10
        settings.order = order
        return SlideshowController(settings: settings, photos: photos, seed: seed, screen: .grid(scrollOffset: 0), now: 0)
    }

    @Test func stepsForwardAndBackThroughWhatWasShown() {
        for order in [KioskConfig.SlideshowOrder.sequential, .shuffle] {
            var s = running(order)
            var shown = [s.sequencer.current!]
            for i in 1...3 {
                let stepped = s.step(forward: true, at: Double(i))
                #expect(stepped)
                shown.append(s.sequencer.current!)
            }
            for i in 1...3 {
                let steppedBack = s.step(forward: false, at: 10 + Double(i))
                #expect(steppedBack)
                #expect(s.sequencer.current == shown[3 - i], "\(order): back through the history")
            }
            #expect(s.shownAt == 13, "a step restarts the photo's interval")
        }
    }

    @Test func sequentialStepsBackPastItsHistoryInLibraryOrder() {
        var s = running(.sequential)
        #expect(s.sequencer.current == "/p/a.jpg")
        let steppedBack = s.step(forward: false, at: 1)
        #expect(steppedBack)
        #expect(s.sequencer.current == "/p/d.jpg")
        var shuffled = running(.shuffle)
        let shuffleSteppedBack = shuffled.step(forward: false, at: 1)
        #expect(!shuffleSteppedBack, "nothing shown before the first photo of a shuffle")
    }

    @Test func aPauseHoldsThePhotoAndResumeGivesItAWholeInterval() {
        var s = running(.sequential)
        s.pause()
        #expect(s.nextDeadline == nil)
        let ticked = s.tick(at: 100)
        #expect(!ticked)
        #expect(s.sequencer.current == "/p/a.jpg")
        s.resume(at: 100)
        #expect(s.nextDeadline == 110)
        var browsing = SlideshowController(settings: .init(), photos: photos, seed: 1, screen: .grid(scrollOffset: 0), now: 0)
        browsing.pause()
        #expect(browsing.nextDeadline == nil, "paused, the idle slideshow does not start either")
    }

    @Test func aRequestedScreenStateHoldsUntilTheScheduleChanges() {
        let night = SchedulePeriod(parsing: "daily 22:00-07:00")!
        var power = ScreenPower(schedule: DisplaySchedule(periods: [night]), wakeMinutes: 5)
        let evening = LocalDateTime(year: 2026, month: 11, day: 25, hour: 20)
        power.request(screenOn: false, at: evening)
        #expect(!power.decision(at: evening.adding(seconds: 3600)).screenOn)
        #expect(power.decision(at: evening).nextChange == LocalDateTime(year: 2026, month: 11, day: 25, hour: 22))
        // Past the scheduled change the schedule rules again (off for the night, on in the morning).
        #expect(!power.decision(at: LocalDateTime(year: 2026, month: 11, day: 25, hour: 23)).screenOn)
        #expect(power.decision(at: LocalDateTime(year: 2026, month: 11, day: 26, hour: 8)).screenOn)
        // A touch on the screen switched off by request brings it back.
        power.request(screenOn: false, at: evening)
        let woke = power.touch(at: evening.adding(seconds: 60))
        #expect(woke)
        #expect(power.decision(at: evening.adding(seconds: 61)).screenOn)
        // On by request at night: on until the morning, touches are ordinary.
        let midnight = LocalDateTime(year: 2026, month: 11, day: 26)
        power.request(screenOn: true, at: midnight)
        #expect(power.decision(at: midnight.adding(seconds: 3 * 3600)).screenOn)
        let wokeAtNight = power.touch(at: midnight.adding(seconds: 3 * 3600))
        #expect(!wokeAtNight)
    }

    // MARK: The whole app

    func makeApp(photoCount: Int) throws -> (KioskApp, HeadlessDisplay, String) {
        let folder = makeTemporaryDirectory("control")
        for i in 0..<photoCount {
            let b = Bitmap(width: 320, height: 200)
            Canvas(target: b).clear(KioskSessionDriverTests.colors[i % KioskSessionDriverTests.colors.count])
            try FileReader.write(try JPEGEncoder.encode(b, options: .init(quality: 95)), to: folder + "/photo0\(i).jpg")
        }
        var config = KioskConfig()
        config.library.thumbnailSize = 190
        config.slideshow.idleTimeout = 600
        config.slideshow.interval = 600
        config.slideshow.transitionDuration = 0.05
        let display = HeadlessDisplay(width: 800, height: 600)
        let app = KioskApp(config: config, folders: [folder], display: display, loop: try EventLoop(signals: []),
                           thumbnailCacheDirectory: nil, logger: .init(label: "test"))
        try app.start()
        return (app, display, folder)
    }

    @Test func commandsDriveTheSlideshowTheScreenAndTheAlbum() throws {
        let (app, display, folder) = try makeApp(photoCount: 3)
        defer { removeTree(folder) }
        #expect(app.perform(.next) == .refused("the kiosk's slideshow and schedule are not running"))
        let life = app.startKioskSession(resume: nil, seed: 1)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.status.screen == .grid)
        #expect(app.status.photoCount == 3)
        if case .refused = app.perform(.next) {} else { Issue.record("next on the grid names no photo") }

        #expect(app.perform(.slideshow(on: true)) == .done)
        #expect(try app.host.run(until: { life.isSlideshowSettled }, timeout: 20))
        #expect(app.status.screen == .slideshow)
        #expect(app.status.photoName == "photo00.jpg")
        #expect(app.perform(.next) == .done)
        #expect(try app.host.run(until: { life.isSlideshowSettled }, timeout: 20))
        #expect(app.status.photoName == "photo01.jpg")
        #expect(app.status.photoIndex == 1)
        #expect(KioskSessionDriverTests().close(display.frameBuffer.color(x: 400, y: 300), KioskSessionDriverTests.colors[1]))
        #expect(app.perform(.previous) == .done)
        #expect(try app.host.run(until: { life.isSlideshowSettled }, timeout: 20))
        #expect(app.status.photoName == "photo00.jpg")

        #expect(app.perform(.pause) == .done)
        #expect(app.status.isPaused)
        #expect(life.nextTimerDeadline == nil, "nothing left to time while paused and on all day")
        #expect(app.perform(.resume) == .done)
        #expect(!app.status.isPaused)

        #expect(app.perform(.screen(on: false)) == .done)
        #expect(!display.isScreenOn)
        #expect(app.status.screen == .blank)
        #expect(app.perform(.screen(on: true)) == .done)
        #expect(display.isScreenOn)

        #expect(app.perform(.slideshow(on: false)) == .done)
        #expect(app.status.screen == .grid)
        #expect(life.slideshowView == nil)

        app.openPhoto(at: 0)
        #expect(app.status.screen == .album)
        #expect(app.perform(.previous) == .refused("this is the first photo"))
        #expect(app.perform(.next) == .done)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.status.photoName == "photo01.jpg")
    }
}
