import Testing
import Graphics
import Imaging
import Platform
import UI
@testable import PhotoKioskApp
import TestSupport

/// A fast replay plays the kiosk as `run` has it: a quick fling does not stall it (its deferred
/// loads wait for the virtual clock, not for real time), and the idle slideshow, its wake-up
/// and the screen-off schedule happen on the recording's clock.
@Suite struct ReplayLifeTests {
    /// Makes the photo folders (removed after each test).
    let replay = ReplayDeterminismTests()

    struct Lab {
        let screen: TouchLabScreen
        let display: HeadlessDisplay
        let clock: ManualClock
        let size = Size(width: 1280, height: 800)
    }

    func makeLab(folder: String, configure: (inout KioskConfig) -> Void = { _ in }) throws -> Lab {
        var config = KioskConfig()
        config.library.thumbnailSize = 150
        configure(&config)
        let loop = try EventLoop(signals: [])
        let clock = ManualClock(now: loop.now)
        let display = HeadlessDisplay(width: 1280, height: 800)
        let screen = TouchLabScreen(content: .photos(config: config, folders: [folder], thumbnailCacheDirectory: nil),
                                    display: display, loop: loop, logger: .init(label: "test"), clock: clock,
                                    showsOverlay: false, allowsToggle: false)
        try screen.start()
        return Lab(screen: screen, display: display, clock: clock)
    }

    func replayer(_ recording: TouchRecording, _ lab: Lab) -> Replayer {
        let replayer = Replayer(recording: recording, geometry: RecordingGeometry(logicalSize: lab.size, rotation: .none),
                                host: lab.screen.host, pace: .fast(lab.clock),
                                deliver: { lab.screen.handle($0) }, isSettled: { lab.screen.isSettled })
        // A stall is the failure: before the fix every step of a fast fling waited here.
        replayer.settleTimeout = 10
        replayer.maxStalls = 0
        return replayer
    }

    static let device = TouchRecording.Device(name: "Scripted", sizeMillimetres: (154, 86), screen: (1280, 800))

    /// 50 px every 16 ms: fast enough that the grid defers its thumbnail loads.
    @Test func aFastFlingFinishesWithoutStalling() throws {
        let folder = try replay.makeFolder(photoCount: 60)
        defer { removeTree(folder) }
        var entries: [TouchRecording.Entry] = [.init(time: 0, event: .down(slot: 0, x: 0.2, y: 0.625)), .init(time: 0, event: .frame)]
        for i in 1...5 {
            let t = Double(i) * 0.016
            entries += [.init(time: t, event: .move(slot: 0, x: 0.2, y: 0.625 - Double(i) * 0.0625)), .init(time: t, event: .frame)]
        }
        entries += [.init(time: 0.08, event: .up(slot: 0)), .init(time: 0.08, event: .frame), .init(time: 0.2, event: .mark("flung"))]
        let lab = try makeLab(folder: folder)
        let replayer = replayer(TouchRecording(device: Self.device, entries: entries), lab)
        var deferredAtMark = false
        replayer.onMark = { _ in deferredAtMark = lab.screen.app?.thumbnails.isDeferringLoads ?? false }
        try replayer.run()
        #expect(deferredAtMark, "the fling deferred loads, so the replay met the case that stalled")
        #expect(replayer.stalls == 0)
        let app = try #require(lab.screen.app)
        #expect(app.grid.contentOffset.y > 0, "the grid moved")
        #expect(app.isContentLoaded, "once the fling slowed, the thumbnails it deferred arrived")
    }

    @Test func theIdleSlideshowStartsAndATapWakesTheGrid() throws {
        let folder = try replay.makeFolder(photoCount: 6)
        defer { removeTree(folder) }
        let lab = try makeLab(folder: folder) { config in
            config.slideshow.idleTimeout = 3
            config.slideshow.interval = 5
        }
        let life = try #require(lab.screen.startKioskSession(power: nil, seed: 1, localTime: TouchLabScreen.localTime(
            following: lab.clock, from: LocalDateTime(year: 2026, month: 11, day: 25, hour: 12))))
        let recording = TouchRecording(device: Self.device, entries: [
            .init(time: 2, event: .mark("grid")),
            .init(time: 10, event: .mark("slideshow")),
            .init(time: 13, event: .down(slot: 0, x: 0.5, y: 0.5)), .init(time: 13, event: .frame),
            .init(time: 13.05, event: .up(slot: 0)), .init(time: 13.05, event: .frame),
            .init(time: 14, event: .mark("woken")),
        ])
        let replayer = replayer(recording, lab)
        replayer.tail = 1
        var running: [String: Bool] = [:]
        replayer.onMark = { running[$0] = life.isSlideshowRunning && life.isSlideshowSettled }
        try replayer.run()
        #expect(running == ["grid": false, "slideshow": true, "woken": false])
        #expect(lab.screen.app?.album == nil, "the waking tap went no further than waking")
    }

    @Test func theScheduleFollowsTheRecordingsClock() throws {
        let folder = try replay.makeFolder(photoCount: 3)
        defer { removeTree(folder) }
        let lab = try makeLab(folder: folder) { config in
            config.schedule.periods = [SchedulePeriod(parsing: "daily 22:00-07:00")!]
        }
        // Ten seconds before the screen-off period starts.
        _ = try #require(lab.screen.startKioskSession(power: nil, seed: 1, localTime: TouchLabScreen.localTime(
            following: lab.clock, from: LocalDateTime(year: 2026, month: 11, day: 25, hour: 21, minute: 59, second: 50))))
        let recording = TouchRecording(device: Self.device, entries: [
            .init(time: 5, event: .mark("before")), .init(time: 20, event: .mark("after")),
        ])
        let replayer = replayer(recording, lab)
        var on: [String: Bool] = [:]
        replayer.onMark = { on[$0] = lab.display.isScreenOn }
        try replayer.run()
        #expect(on == ["before": true, "after": false])
    }
}
