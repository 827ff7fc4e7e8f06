import TestSupport
import Testing
import Glibc
import Graphics
import Imaging
import Platform
import UI
@testable import PhotoKioskApp
import Widgets

/// The kiosk's life in the whole app on a headless screen: the slideshow after an idle timeout
/// (short, real time through the event loop), a touch that stops it, the schedule blanking the
/// headless screen's recorded power, and resuming after a restart.
@Suite struct KioskSessionDriverTests {
    /// The folders a test makes, removed after it.
    let scratch = ScratchDirectory()

    static let colors: [Color] = [.red, .green, .blue, Color(rgb: 0xFFFF00)]

    func makeFolder(photoCount: Int) throws -> String {
        let dir = scratch.newFolder("life")
        for i in 0..<photoCount {
            let b = Bitmap(width: 320, height: 200)
            Canvas(target: b).clear(Self.colors[i % Self.colors.count])
            try FileReader.write(try JPEGEncoder.encode(b, options: .init(quality: 95)), to: dir + "/photo0\(i).jpg")
        }
        return dir
    }

    func config(idle: Double = 0.3, interval: Double = 30, fade: Double = 0.1) -> KioskConfig {
        var c = KioskConfig()
        c.library.thumbnailSize = 190
        c.slideshow.idleTimeout = idle
        c.slideshow.interval = interval
        c.slideshow.transitionDuration = fade
        return c
    }

    func makeApp(_ config: KioskConfig, folder: String) throws -> (KioskApp, HeadlessDisplay) {
        let display = HeadlessDisplay(width: 800, height: 600)
        let app = KioskApp(config: config, folders: [folder], display: display, loop: try EventLoop(signals: []),
                           thumbnailCacheDirectory: nil, logger: .init(label: "test"))
        try app.start()
        return (app, display)
    }

    func tap(_ app: KioskApp, at point: Point) {
        let now = app.host.loop.now
        app.handle(.touch(slot: 0, phase: .down, location: point, time: now))
        app.handle(.frame(time: now))
        app.handle(.touch(slot: 0, phase: .up, location: point, time: now + 0.05))
        app.handle(.frame(time: now + 0.05))
    }

    func close(_ a: Color, _ b: Color) -> Bool {
        abs(Int(a.red) - Int(b.red)) < 24 && abs(Int(a.green) - Int(b.green)) < 24 && abs(Int(a.blue) - Int(b.blue)) < 24
    }

    @Test func slideshowStartsWhenIdleAndATouchReturnsToTheGridUntouched() throws {
        let folder = try makeFolder(photoCount: 4)
        let (app, display) = try makeApp(config(), folder: folder)
        let life = app.startKioskSession(resume: nil, seed: 1)
        #expect(try app.runUntilSettled(timeout: 20))
        let gridCentre = app.grid.convert(app.grid.layout.frame(of: 1).center, to: nil)
        let gridColor = display.frameBuffer.color(x: Int(gridCentre.x), y: Int(gridCentre.y))
        #expect(close(gridColor, Self.colors[1]))

        #expect(try app.host.run(until: { life.isSlideshowSettled }, timeout: 20))
        #expect(life.isSlideshowRunning)
        #expect(app.grid.isHidden, "the grid beneath is hidden once the slide covers it")
        // The first photo (sequential) fills the screen's width; the bars above and below are its
        // blurred, darkened enlargement: the same hue, not black.
        #expect(close(display.frameBuffer.color(x: 400, y: 300), Self.colors[0]))
        let bar = display.frameBuffer.color(x: 400, y: 20)
        #expect(bar.red > 80 && bar.red < 230 && bar.green < 40 && bar.blue < 40)

        // A touch stops it and does nothing else: no photo opens under the finger.
        tap(app, at: gridCentre)
        #expect(!life.isSlideshowRunning)
        #expect(life.slideshowView == nil)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.album == nil)
        #expect(!app.grid.isHidden)
        #expect(display.frameBuffer.color(x: Int(gridCentre.x), y: Int(gridCentre.y)) == gridColor)
        // The next touch is an ordinary one again.
        tap(app, at: gridCentre)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.album?.centerPageIndex == 1)
    }

    @Test func aFingersMotionLeavesTheSessionTimerAlone() throws {
        // Re-arming reads the wall clock (localtime_r) and sets the timerfd twice: only a touch
        // beginning or ending changes what the session waits for.
        let folder = try makeFolder(photoCount: 2)
        let (app, _) = try makeApp(config(idle: 60), folder: folder)
        var clockReads = 0
        let life = app.startKioskSession(resume: nil, seed: 1, localTime: { clockReads += 1; return LocalDateTime.current() })
        #expect(try app.runUntilSettled(timeout: 20))
        let now = app.host.loop.now
        app.handle(.touch(slot: 0, phase: .down, location: Point(x: 400, y: 300), time: now))
        app.handle(.frame(time: now))
        let readsAfterDown = clockReads
        #expect(readsAfterDown > 0)
        for i in 1...30 {
            app.handle(.touch(slot: 0, phase: .motion, location: Point(x: 400, y: 300 - Double(i)), time: now + Double(i) * 0.008))
            app.handle(.frame(time: now + Double(i) * 0.008))
        }
        #expect(clockReads == readsAfterDown, "motion re-armed the session timer")
        app.handle(.touch(slot: 0, phase: .up, location: Point(x: 400, y: 270), time: now + 0.3))
        #expect(clockReads > readsAfterDown, "the lift re-arms it")
        #expect(life.nextTimerDeadline != nil, "the idle timeout runs again after the lift")
    }

    @Test func slideshowAdvancesToAPreparedPhotoEveryInterval() throws {
        let folder = try makeFolder(photoCount: 3)
        let (app, display) = try makeApp(config(idle: 0, interval: 1, fade: 0.2), folder: folder)
        let life = app.startKioskSession(resume: nil, seed: 1)
        #expect(life.isSlideshowRunning, "idle_timeout 0 starts in the slideshow")
        #expect(try app.host.run(until: { life.isSlideshowSettled }, timeout: 20))
        let first = try #require(life.slideshowView?.photo)
        // The next photo is decoded and composed while the first one shows.
        #expect(try app.host.run(until: { life.preparedPhotos.count == 2 }, timeout: 20))
        #expect(try app.host.run(until: { life.slideshowView?.photo != first && life.isSlideshowSettled }, timeout: 20))
        let second = try #require(life.slideshowView?.photo)
        #expect(second.description.hasSuffix("photo01.jpg"))
        #expect(close(display.frameBuffer.color(x: 400, y: 300), Self.colors[1]))
        #expect(life.slideChangesThatWaited == 0)
    }

    final class WallClock: @unchecked Sendable {
        var time: LocalDateTime
        init(_ time: LocalDateTime) { self.time = time }
    }

    /// Two photos, the screen off daily from 22:00 to 07:00, the session started at `localTime`.
    func nightlyDarkApp(idle: Double, wakeMinutes: Int, localTime: @escaping () -> LocalDateTime)
        throws -> (KioskApp, HeadlessDisplay, KioskSessionDriver) {
        var c = config(idle: idle)
        c.schedule.periods = [SchedulePeriod(parsing: "daily 22:00-07:00")!]
        c.schedule.wakeMinutes = wakeMinutes
        let (app, display) = try makeApp(c, folder: try makeFolder(photoCount: 2))
        return (app, display, app.startKioskSession(resume: nil, seed: 1, localTime: localTime))
    }

    @Test func scheduleBlanksTheScreenATouchWakesItAndMorningTurnsItOn() throws {
        let clock = WallClock(LocalDateTime(year: 2026, month: 11, day: 23, hour: 23))
        let (app, display, life) = try nightlyDarkApp(idle: 0.3, wakeMinutes: 5, localTime: { clock.time })
        #expect(!display.isScreenOn, "23:00 is inside the off period")
        #expect(try app.runUntilSettled(timeout: 20))
        // Dark: no slideshow, and the only timer is the schedule's morning, not a photo change and
        // no re-check of the clock (the kernel tells when the wall clock is set).
        #expect(!life.isSlideshowRunning)
        #expect(app.wallClockWatch != nil)
        let wait = try #require(life.nextTimerDeadline) - app.host.loop.now
        #expect(abs(wait - 8 * 3600) < 2)

        // A touch wakes the screen and is swallowed (the photo under it does not open).
        let cell = app.grid.convert(app.grid.layout.frame(of: 0).center, to: nil)
        tap(app, at: cell)
        #expect(display.isScreenOn)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.album == nil)

        // The wake runs out inside the night: dark again.
        clock.time = LocalDateTime(year: 2026, month: 11, day: 23, hour: 23, minute: 6)
        life.tick()
        #expect(!display.isScreenOn)
        // Morning: on, and the slideshow starts once the idle timeout has passed.
        clock.time = LocalDateTime(year: 2026, month: 11, day: 24, hour: 7)
        life.tick()
        #expect(display.isScreenOn)
        #expect(display.powerChanges == 4)
        #expect(try app.host.run(until: { life.isSlideshowSettled }, timeout: 20))
    }

    /// The wall clock jumps (time sync after a boot at 1970, `date -s`): the schedule decides
    /// again at once from the new local time, and its timer follows the new time; the slideshow's
    /// timer, on the monotonic clock, does not move.
    @Test func aWallClockJumpReEvaluatesTheScheduleAtOnce() throws {
        let clock = WallClock(LocalDateTime(year: 1970, month: 1, day: 1, hour: 12))
        let (app, display, life) = try nightlyDarkApp(idle: 0.3, wakeMinutes: 5, localTime: { clock.time })
        #expect(display.isScreenOn, "noon is outside the night")
        #expect(try app.host.run(until: { life.isSlideshowSettled }, timeout: 20))

        // Time sync: 23:00, inside the night. Dark at once, not at the 22:00 the old clock's
        // timer waited for; the next timer is the morning.
        clock.time = LocalDateTime(year: 2026, month: 11, day: 23, hour: 23)
        app.wallClockWasSet()
        #expect(!display.isScreenOn)
        let night = try #require(life.nextTimerDeadline) - app.host.loop.now
        #expect(abs(night - 8 * 3600) < 2)

        // Back a year, to the afternoon: lit again, and the slideshow goes on at its pace.
        clock.time = LocalDateTime(year: 2025, month: 11, day: 23, hour: 15)
        app.wallClockWasSet()
        #expect(display.isScreenOn)
        #expect(display.powerChanges == 2)
        let lit = try #require(life.nextTimerDeadline) - app.host.loop.now
        #expect(lit <= 30 + 0.5, "the slideshow's interval, not the schedule's 22:00")
        #expect(life.isSlideshowRunning)
    }

    @Test func aDarkScreenSleepsWithoutWakeups() throws {
        let folder = try makeFolder(photoCount: 3)
        var c = config(idle: 0, interval: 1, fade: 0.1)   // would change photos every second
        c.schedule.periods = [SchedulePeriod(parsing: "daily 22:00-07:00")!]
        let (app, display) = try makeApp(c, folder: folder)
        let life = app.startKioskSession(resume: nil, seed: 1, localTime: { LocalDateTime(year: 2026, month: 11, day: 23, hour: 1) })
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(try app.host.run(until: { !life.isPreparing }, timeout: 20))
        // The scan's last deliveries, late on a loaded machine: under load one came more than 0.5 s
        // after the one before (13 wakeups read as 12); a timer of up to 1.5 s still shows below.
        try app.host.loop.runUntilQuiet(for: 1.5)
        #expect(!display.isScreenOn)
        let frames = display.presentedFrames, wakeups = app.host.loop.wakeups
        let photo = life.session.slideshow.sequencer.current, shownAt = life.session.slideshow.shownAt
        _ = try app.host.run(until: { false }, timeout: 1.5)
        #expect(app.host.loop.wakeups == wakeups, "no timer fires and nothing is polled while dark")
        #expect(display.presentedFrames == frames)
        #expect(life.session.slideshow.sequencer.current == photo, "the slideshow does not advance in the dark")
        #expect(life.session.slideshow.shownAt == shownAt)
    }

    /// One run of the app (no slideshow) that `change`s what is shown, then saves the resume
    /// state as a stop does; the app is gone when this returns.
    func runAndSaveResume(folder: String, store: ResumeStore, timeout: Double, _ change: (KioskApp) -> Void) throws {
        let (app, _) = try makeApp(config(idle: 600), folder: folder)
        let life = app.startKioskSession(resume: store, seed: 1)
        #expect(try app.runUntilSettled(timeout: timeout))
        change(app)
        life.saveResume(force: true)
    }

    /// The next start: a fresh app that resumes from `store`, settled.
    func restartedApp(folder: String, store: ResumeStore, timeout: Double) throws -> KioskApp {
        let (app, _) = try makeApp(config(idle: 600), folder: folder)
        app.startKioskSession(resume: store, seed: 1)
        #expect(try app.runUntilSettled(timeout: timeout))
        return app
    }

    @Test func aRestartReopensTheAlbumAtThePhotoThatWasOpen() throws {
        let folder = try makeFolder(photoCount: 4)
        let store = ResumeStore(path: scratch.newFolder("state") + "/resume")
        try runAndSaveResume(folder: folder, store: store, timeout: 20) { $0.openPhoto(at: 2) }
        let app = try restartedApp(folder: folder, store: store, timeout: 20)
        #expect(app.album?.centerPageIndex == 2)
        #expect(app.currentScreen == .photo(path: RawPath(folder + "/photo02.jpg")))
    }

    @Test func aRestartReturnsToTheGridPosition() throws {
        let folder = try makeFolder(photoCount: 40)
        let store = ResumeStore(path: scratch.newFolder("state") + "/resume")
        try runAndSaveResume(folder: folder, store: store, timeout: 30) {
            $0.grid.setContentOffset(Point(x: 0, y: 500), animated: false)
        }
        #expect(store.load().state.screen == .grid(scrollOffset: 500))
        let app = try restartedApp(folder: folder, store: store, timeout: 30)
        #expect(app.grid.contentOffset.y == 500)
        #expect(app.album == nil)
    }

    @Test func withoutWakeMinutesADarkScreenIgnoresTouches() throws {
        let (app, display, life) = try nightlyDarkApp(idle: 600, wakeMinutes: 0,
                                                      localTime: { LocalDateTime(year: 2026, month: 11, day: 23, hour: 2) })
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(!display.isScreenOn)
        tap(app, at: app.grid.convert(app.grid.layout.frame(of: 0).center, to: nil))
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(!display.isScreenOn)
        #expect(app.album == nil, "the touch went nowhere")
        #expect(!life.isSlideshowRunning)
    }

    @Test func aKeyStopsTheSlideshowAndIsSwallowed() throws {
        let folder = try makeFolder(photoCount: 2)
        let (app, _) = try makeApp(config(idle: 0), folder: folder)
        let life = app.startKioskSession(resume: nil, seed: 1)
        #expect(try app.host.run(until: { life.isSlideshowSettled }, timeout: 20))
        app.handle(.key(.escape, pressed: true, time: app.host.loop.now))
        app.handle(.key(.escape, pressed: false, time: app.host.loop.now))
        #expect(!life.isSlideshowRunning)
        #expect(life.slideshowView == nil)
        // After a touch with idle_timeout 0 the slideshow waits the interactive minimum to return.
        let wait = try #require(life.nextTimerDeadline) - app.host.loop.now
        #expect(wait > 59 && wait <= IdleTracker.minimumInteractiveTimeout)
    }

    @Test func anUnreadablePhotoIsPassedOverAtOnce() throws {
        let folder = try makeFolder(photoCount: 3)
        try FileReader.write(Array("not a photo".utf8), to: folder + "/photo01.jpg")
        let (app, _) = try makeApp(config(idle: 0, interval: 1, fade: 0.1), folder: folder)
        let life = app.startKioskSession(resume: nil, seed: 1)
        #expect(try app.host.run(until: { life.isSlideshowSettled }, timeout: 20))
        #expect(life.slideshowView?.photo?.description.hasSuffix("photo00.jpg") == true)
        let firstShown = try #require(life.session.slideshow.shownAt)
        #expect(try app.host.run(until: { life.slideshowView?.photo?.description.hasSuffix("photo02.jpg") == true }, timeout: 20))
        // photo01 had its turn at firstShown + 1 and was replaced then, not an interval later.
        let shown = try #require(life.session.slideshow.shownAt)
        #expect(shown - firstShown < 1.9)
    }

    @Test func aRestartInTheSlideshowContinuesWithTheSamePhoto() throws {
        let folder = try makeFolder(photoCount: 4)
        let state = scratch.newFolder("state")
        let store = ResumeStore(path: state + "/resume")
        var shown: RawPath?
        do {
            let (app, _) = try makeApp(config(idle: 0, interval: 1, fade: 0.1), folder: folder)
            let life = app.startKioskSession(resume: store, seed: 7)
            #expect(try app.host.run(until: { life.slideshowView?.photo?.description.hasSuffix("photo01.jpg") == true && life.isSlideshowSettled }, timeout: 20))
            shown = life.slideshowView?.photo
            life.saveResume(force: true)
        }
        #expect(store.load().state.inSlideshow)
        let (app, display) = try makeApp(config(idle: 600, interval: 30), folder: folder)
        let life = app.startKioskSession(resume: store, seed: 7)
        #expect(life.isSlideshowRunning, "it was in the slideshow: it starts there although the idle timeout is long")
        #expect(try app.host.run(until: { life.isSlideshowSettled }, timeout: 20))
        #expect(life.slideshowView?.photo == shown)
        #expect(close(display.frameBuffer.color(x: 400, y: 300), Self.colors[1]))
        // A touch goes back to the grid it was started from.
        tap(app, at: Point(x: 400, y: 300))
        #expect(app.currentScreen == .grid(scrollOffset: 0))
        #expect(store.load().state.inSlideshow == false)
    }
}

