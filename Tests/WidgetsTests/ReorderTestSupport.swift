import Graphics
import UI
@testable import Widgets

/// A window on a manual clock with scripted touches, frame by frame (1/60 s).
final class ReorderHarness {
    static let frame = 1.0 / 60
    let clock = ManualClock(now: 100)
    let window: Window

    init(size: Size) {
        window = Window(size: size, clock: clock)
    }

    func advance(by seconds: Double) {
        clock.advance(by: seconds)
        window.advance(to: clock.now)
    }

    /// Whole frames for `seconds`.
    func run(for seconds: Double) {
        let frames = Int((seconds / Self.frame).rounded())
        for _ in 0..<frames { advance(by: Self.frame) }
    }

    func touch(_ phase: TouchPhase, _ p: Point, slot: Int = 0) {
        window.dispatch([TouchEvent(slot: slot, phase: phase, location: p, timestamp: clock.now)])
    }

    /// Finger down at `p`, held until a long press is recognized.
    func longPress(at p: Point) {
        touch(.began, p)
        run(for: 0.55)
    }

    /// A finger moving in `steps` frames from `a` to `b` (finger stays down).
    func move(from a: Point, to b: Point, steps: Int) {
        for i in 1...steps {
            advance(by: Self.frame)
            touch(.moved, a + (b - a) * (Double(i) / Double(steps)))
        }
    }
}

func near(_ a: Point, _ b: Point, _ tolerance: Double = 1e-6) -> Bool { a.distance(to: b) <= tolerance }
func near(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-6) -> Bool {
    near(a.origin, b.origin, tolerance) && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}
