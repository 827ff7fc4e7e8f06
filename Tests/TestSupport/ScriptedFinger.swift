import Graphics
import UI

/// One finger on a window whose clock the test moves, at the window's horizontal middle: the
/// scripted touches of the fling tests. Each step and touch lays the window out, as a frame would.
public final class ScriptedFinger {
    public let window: Window
    public let clock: ManualClock

    public init(window: Window, clock: ManualClock) {
        self.window = window
        self.clock = clock
    }

    public func step(_ seconds: Double) {
        clock.advance(by: seconds)
        window.advance(to: clock.now)
        window.layoutIfNeeded()
    }

    public func touch(_ phase: TouchPhase, y: Double) {
        let location = Point(x: window.bounds.midX, y: y)
        window.dispatch([TouchEvent(slot: 0, phase: phase, location: location, timestamp: clock.now)])
        window.layoutIfNeeded()
    }

    /// 400 points up in 64 ms from y = 900, then lift: about 6,000 points per second, the
    /// benchmark's fling.
    public func swipeUp() {
        var y = 900.0
        touch(.began, y: y)
        for _ in 0..<8 {
            step(0.008)
            y -= 50
            touch(.moved, y: y)
        }
        step(0.008)
        touch(.ended, y: y)
    }
}
