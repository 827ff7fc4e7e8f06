/// Monotonic time in seconds. The app passes a clock backed by CLOCK_MONOTONIC; tests pass a
/// `ManualClock`, so everything in UI is deterministic and never reads the wall clock.
///
/// Touch timestamps (`TouchEvent.timestamp`) must be on the same time base.
public protocol UIClock {
    var now: Double { get }
}

/// A clock that moves only when told to. For tests and replays.
public final class ManualClock: UIClock {
    public var now: Double

    public init(now: Double = 0) {
        self.now = now
    }

    public func advance(by seconds: Double) {
        precondition(seconds >= 0, "a monotonic clock cannot go back")
        now += seconds
    }
}
