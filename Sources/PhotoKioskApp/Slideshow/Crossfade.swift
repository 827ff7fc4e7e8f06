/// A cross-fade from one photo to the next, started at `start` and lasting `duration` seconds.
/// `progress` is the opacity of the incoming photo, eased (smoothstep) so the fade neither starts
/// nor ends with a jump in brightness change.
public struct Crossfade: Equatable, Sendable {
    public let start: Double
    public let duration: Double

    public init(start: Double, duration: Double) {
        self.start = start
        self.duration = max(0, duration)
    }

    public var end: Double { start + duration }

    /// Linear fraction of the time elapsed, 0 before the start, 1 from the end on.
    public func fraction(at now: Double) -> Double {
        guard duration > 0 else { return now >= start ? 1 : 0 }
        return min(1, max(0, (now - start) / duration))
    }

    /// Opacity of the incoming photo at `now`, 0...1.
    public func progress(at now: Double) -> Double {
        let t = fraction(at: now)
        return t * t * (3 - 2 * t)
    }

    public func isFinished(at now: Double) -> Bool { now >= end }
}
