import Testing
import Graphics
import Platform
import UI
@testable import PhotoKioskApp
import Widgets

/// The touch lab on a screen host: latency from event to present, the overlay kept in front,
/// the four-finger toggle.
@Suite struct TouchLabHostTests {
    func makeHost() throws -> (ScreenHost, ManualClock, TouchLab) {
        let loop = try EventLoop(signals: [])
        let clock = ManualClock(now: 1000)
        let host = ScreenHost(display: HeadlessDisplay(width: 320, height: 240), loop: loop, logger: .init(label: "test"), clock: clock)
        let lab = TouchLab(host: host, showsOverlay: true, allowsToggle: true)
        return (host, clock, lab)
    }

    @Test func latencyRunsFromTheEventTimestampToThePresentThatShowsIt() throws {
        let (host, clock, _) = try makeHost()
        var latencies: [Double] = []
        let overlayHook = host.onTouchLatency
        host.onTouchLatency = { overlayHook?($0); latencies.append($0) }
        host.pump()
        host.handle(.touch(slot: 0, phase: .down, location: Point(x: 50, y: 50), time: 1000))
        host.handle(.frame(time: 1000))
        clock.now = 1000.0125
        host.pump()
        #expect(latencies.count == 1)
        #expect(abs((latencies.first ?? 0) - 0.0125) < 1e-9)
        clock.now = 1000.02
        host.pump()
        #expect(latencies.count == 1, "no new touch, no new figure")
    }

    @Test func overlayStaysInFrontOfScreensAddedLater() throws {
        let (host, _, lab) = try makeHost()
        host.window.addSubview(View(frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        #expect(host.window.subviews.last !== lab.overlay)
        host.pump()
        #expect(host.window.subviews.last === lab.overlay)
    }

    @Test func fourFingersTogglesTheOverlayAndGesturesAreKept() throws {
        let (host, clock, lab) = try makeHost()
        let fingers = (0..<4).map { Point(x: 40 + Double($0) * 60, y: 120) }
        let t0 = clock.now
        for (i, p) in fingers.enumerated() { host.handle(.touch(slot: i, phase: .down, location: p, time: t0)) }
        host.handle(.frame(time: t0))
        clock.now += 0.08
        for (i, p) in fingers.enumerated() { host.handle(.touch(slot: i, phase: .up, location: p, time: clock.now)) }
        host.handle(.frame(time: clock.now))
        host.pump()
        #expect(lab.overlay.isHidden)
        #expect(lab.gestures.map(\.gesture) == [.fourFingerTap(at: Point(x: 130, y: 120))])
        #expect(lab.reportLines(from: t0) == ["0.080 four-finger-tap 130.0,120.0"])
    }
}
