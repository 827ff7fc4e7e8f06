import Graphics
@testable import UI

/// A window on a manual clock with helpers to script touches frame by frame.
final class Harness {
    static let frame = 1.0 / 60

    let clock = ManualClock(now: 10)
    let window: Window

    init(width: Double = 400, height: Double = 400) {
        window = Window(size: Size(width: width, height: height), clock: clock)
    }

    var now: Double { clock.now }

    /// Moves the clock and lets the window run what is due.
    func advance(by seconds: Double) {
        clock.advance(by: seconds)
        window.advance(to: clock.now)
    }

    /// Steps whole frames until `seconds` have passed.
    func run(for seconds: Double) {
        let end = clock.now + seconds
        while clock.now < end - 1e-9 { advance(by: min(Self.frame, end - clock.now)) }
    }

    /// Steps frames until nothing is scheduled (or `limit` seconds pass); returns the time taken.
    @discardableResult
    func runUntilIdle(limit: Double = 30) -> Double {
        let start = clock.now
        while let deadline = window.nextDeadline, clock.now - start < limit {
            clock.now = max(clock.now, deadline)
            window.advance(to: clock.now)
        }
        return clock.now - start
    }

    func touch(_ phase: TouchPhase, _ point: Point, slot: Int = 0) {
        window.dispatch([TouchEvent(slot: slot, phase: phase, location: point, timestamp: clock.now)])
    }

    func touches(_ events: [(TouchPhase, Point, Int)]) {
        window.dispatch(events.map { TouchEvent(slot: $0.2, phase: $0.0, location: $0.1, timestamp: clock.now) })
    }

    /// A finger moving in a straight line at constant speed, one sample per frame, lifting at
    /// the last sample's time and place (so the release velocity is exactly the drag speed).
    func drag(from a: Point, to b: Point, duration: Double, slot: Int = 0, lift: Bool = true) {
        touch(.began, a, slot: slot)
        let steps = max(1, Int((duration / Self.frame).rounded()))
        for i in 1...steps {
            advance(by: duration / Double(steps))
            touch(.moved, a + (b - a) * (Double(i) / Double(steps)), slot: slot)
        }
        if lift { touch(.ended, b, slot: slot) }
    }

    func tap(_ p: Point, slot: Int = 0, hold: Double = 0.05) {
        touch(.began, p, slot: slot)
        advance(by: hold)
        touch(.ended, p, slot: slot)
    }
}

/// A view that records the touch calls it gets.
final class RecordingView: View {
    var log: [String] = []

    override func touchesBegan(_ touches: [Touch]) { log.append("began") }
    override func touchesMoved(_ touches: [Touch]) { if log.last != "moved" { log.append("moved") } }
    override func touchesEnded(_ touches: [Touch]) { log.append("ended") }
    override func touchesCancelled(_ touches: [Touch]) { log.append("cancelled") }
}

func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }
func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-6) -> Bool { a.distance(to: b) <= tolerance }

/// A 400x400 scroll view over `content`, in `h`'s window.
func makeScroll(content: Size, in h: Harness = Harness()) -> (Harness, ScrollView) {
    let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    scroll.contentSize = content
    h.window.addSubview(scroll)
    return (h, scroll)
}
