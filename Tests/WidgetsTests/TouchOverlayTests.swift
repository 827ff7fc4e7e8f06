import Testing
import Graphics
import UI
@testable import Widgets

/// The touch overlay draws over any screen and leaves nothing behind; the gesture probe reports
/// what the UI's recognizers see.
@Suite struct TouchOverlayTests {
    /// A window with a striped screen below the overlay (so stale overlay pixels would show).
    func makeWindow(clock: ManualClock) -> (Window, TouchOverlayView, Bitmap, Canvas) {
        let window = Window(size: Size(width: 400, height: 300), clock: clock)
        for i in 0..<8 {
            let stripe = View(frame: Rect(x: Double(i) * 50, y: 0, width: 50, height: 300))
            stripe.backgroundColor = i % 2 == 0 ? Color(rgb: 0x336699) : Color(rgb: 0x996633)
            window.addSubview(stripe)
        }
        let overlay = TouchOverlayView(frame: window.bounds)
        window.addSubview(overlay)
        let bitmap = Bitmap(width: 400, height: 300)
        return (window, overlay, bitmap, Canvas(target: bitmap))
    }

    func pixels(_ b: Bitmap) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(b.width * b.height)
        for y in 0..<b.height { for x in 0..<b.width { out.append(b.pixel(x: x, y: y)) } }
        return out
    }

    /// How many pixels differ (a short failure message instead of two screens of numbers).
    func differing(_ a: [UInt32], _ b: [UInt32]) -> Int {
        zip(a, b).reduce(abs(a.count - b.count)) { $0 + ($1.0 == $1.1 ? 0 : 1) }
    }

    /// Renders like the host: advance, then draw the damage only.
    func frame(_ window: Window, _ clock: ManualClock, _ canvas: Canvas, by dt: Double) -> [PixelRect] {
        clock.advance(by: dt)
        window.advance(to: clock.now)
        return window.render(into: canvas)
    }

    @Test func trailsFadeWithoutStalePixelsAndDamageStaysSmall() {
        let clock = ManualClock(now: 100)
        let (window, overlay, bitmap, canvas) = makeWindow(clock: clock)
        _ = window.render(into: canvas)
        let before = pixels(bitmap)

        var p = Point(x: 60, y: 200)
        overlay.observe([TouchEvent(slot: 0, phase: .began, location: p, timestamp: clock.now)])
        overlay.observe([TouchEvent(slot: 2, phase: .began, location: Point(x: 300, y: 100), timestamp: clock.now)])
        var largestDamage = 0
        // No finger, caption or label comes near this corner: it must never be redrawn.
        let untouched = PixelRect(x: 280, y: 250, width: 120, height: 50)
        var damagedUntouched = false
        var sawOverlay = false
        for _ in 0..<30 {
            p = p + Point(x: 9, y: -4)
            let damage = frame(window, clock, canvas, by: 1.0 / 60)
            largestDamage = max(largestDamage, damage.reduce(0) { $0 + $1.width * $1.height })
            if damage.contains(where: { !$0.intersection(untouched).isEmpty }) { damagedUntouched = true }
            overlay.observe([TouchEvent(slot: 0, phase: .moved, location: p, timestamp: clock.now),
                             TouchEvent(slot: 2, phase: .moved, location: Point(x: 300, y: 100 + clock.now - 100), timestamp: clock.now)])
            if overlay.fingerCount == 2 && differing(pixels(bitmap), before) > 0 { sawOverlay = true }
        }
        overlay.flash("pan 270.0,-120.0 velocity 540,-240")
        overlay.observe([TouchEvent(slot: 0, phase: .ended, location: p, timestamp: clock.now),
                         TouchEvent(slot: 2, phase: .ended, location: Point(x: 300, y: 101), timestamp: clock.now)])
        _ = frame(window, clock, canvas, by: 1.0 / 60)
        #expect(sawOverlay)
        #expect(differing(pixels(bitmap), before) > 0)
        // Only the trail areas are redrawn: far less than the whole screen per frame.
        #expect(largestDamage < 400 * 300 / 3, "largest frame damage \(largestDamage) px")
        #expect(!damagedUntouched)

        var frames = 0
        while window.nextDeadline != nil && frames < 600 {
            _ = frame(window, clock, canvas, by: 1.0 / 30)
            frames += 1
        }
        #expect(window.nextDeadline == nil, "the overlay stops its timer when idle")
        #expect(!overlay.isShowingActivity)
        _ = window.render(into: canvas)
        #expect(differing(pixels(bitmap), before) == 0, "after the trails fade the screen equals the screen before any touch")
    }

    @Test func overlayIsNeverHitTested() {
        let clock = ManualClock()
        let (window, _, _, _) = makeWindow(clock: clock)
        let hit = window.hitTest(Point(x: 75, y: 150))
        #expect(hit !== nil && !(hit is TouchOverlayView))
    }

    @Test func rateMeterReportsFramesPerSecondAndDropsToZero() {
        var meter = RateMeter()
        for i in 0..<30 { meter.add(Double(i) / 120) }
        #expect(meter.rate(now: 29.0 / 120) == 120)
        #expect(meter.rate(now: 2) == 0)
    }

    // MARK: Gesture probe

    final class Probe {
        let clock = ManualClock(now: 10)
        let probe: GestureProbe
        var seen: [RecognizedGesture] = []
        init() {
            probe = GestureProbe(size: Size(width: 800, height: 600), clock: clock)
            probe.onGesture = { [unowned self] _, g in self.seen.append(g) }
        }
        func send(_ events: [(Int, TouchPhase, Point)], after dt: Double = 1.0 / 60) {
            run(for: dt)
            probe.observe(events.map { TouchEvent(slot: $0.0, phase: $0.1, location: $0.2, timestamp: clock.now) })
        }
        func run(for dt: Double) {
            let end = clock.now + dt
            while let d = probe.nextDeadline, d <= end {
                clock.now = max(clock.now, d)
                probe.advance(to: clock.now)
            }
            clock.now = end
            probe.advance(to: end)
        }
    }

    @Test func probeSeesTapDoubleTapLongPressPanAndPinch() {
        let p = Probe()
        let a = Point(x: 100, y: 100)
        p.send([(0, .began, a)]); p.send([(0, .ended, a)], after: 0.05)
        p.run(for: 0.5)
        #expect(p.seen == [.tap(at: a)])

        p.seen.removeAll()
        p.send([(0, .began, a)]); p.send([(0, .ended, a)], after: 0.05)
        p.send([(0, .began, a)], after: 0.1); p.send([(0, .ended, a)], after: 0.05)
        p.run(for: 0.5)
        #expect(p.seen == [.doubleTap(at: a)])

        p.seen.removeAll()
        p.send([(0, .began, a)]); p.run(for: 0.7); p.send([(0, .ended, a)])
        p.run(for: 0.5)
        #expect(p.seen == [.longPress(at: a)])

        p.seen.removeAll()
        var q = Point(x: 400, y: 500)
        p.send([(0, .began, q)])
        for _ in 0..<20 { q = q + Point(x: 0, y: -10); p.send([(0, .moved, q)]) }
        p.send([(0, .ended, q)])
        p.run(for: 0.5)
        guard case let .pan(translation, velocity) = p.seen.first, p.seen.count == 1 else {
            Issue.record("expected one pan, got \(p.seen)"); return
        }
        #expect(translation.y < -150 && abs(translation.x) < 0.001)
        // 10 px per 1/60 s is 600 px/s; the resting lift sample lowers the fit a little.
        #expect(velocity.y < -450 && velocity.y > -650, "got \(velocity.y)")

        p.seen.removeAll()
        var l = Point(x: 350, y: 300), r = Point(x: 450, y: 300)
        p.send([(0, .began, l), (1, .began, r)])
        for _ in 0..<10 { l = l + Point(x: -5, y: 0); r = r + Point(x: 5, y: 0); p.send([(0, .moved, l), (1, .moved, r)]) }
        p.send([(0, .ended, l), (1, .ended, r)])
        p.run(for: 0.5)
        #expect(p.seen.contains { if case .pinch(let s) = $0 { return abs(s - 2) < 0.01 } else { return false } }, "\(p.seen)")

        p.seen.removeAll()
        let four = [Point(x: 100, y: 300), Point(x: 200, y: 300), Point(x: 300, y: 300), Point(x: 400, y: 300)]
        p.send(four.enumerated().map { ($0.offset, .began, $0.element) })
        p.send(four.enumerated().map { ($0.offset, .ended, $0.element) }, after: 0.08)
        p.run(for: 0.5)
        #expect(p.seen == [.fourFingerTap(at: Point(x: 250, y: 300))])
    }

    @Test func labelsAreStableLines() {
        #expect(RecognizedGesture.pan(translation: Point(x: 1.25, y: -3), velocity: Point(x: 10.4, y: -0.4)).label
                == "pan 1.3,-3.0 velocity 10,0")
        #expect(RecognizedGesture.pinch(scale: 0.5).label == "pinch scale 0.500")
    }
}
