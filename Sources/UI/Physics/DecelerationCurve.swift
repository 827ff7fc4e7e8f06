#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Exponential decay of a fling, as UIScrollView does it: the velocity is multiplied by `rate`
/// every millisecond, so v(t) = v0·r^(1000t) and x(t) = x0 + v0·(r^(1000t) − 1)/(1000·ln r).
///
/// One axis; a 2-D fling is two curves with the same rate (the direction never changes).
public struct DecelerationCurve: Sendable, Equatable {
    /// UIScrollView.DecelerationRate.normal.
    public static let normalRate = 0.998
    /// UIScrollView.DecelerationRate.fast (photo pages use it).
    public static let fastRate = 0.99
    /// A fling ends when the distance still to travel drops below this (points), as in
    /// ScrollMechanics' DecelerationTimingParameters.
    public static let restThreshold = 0.5

    public var start: Double
    public var velocity: Double
    public var rate: Double

    public init(start: Double, velocity: Double, rate: Double = normalRate) {
        precondition(rate > 0 && rate < 1, "deceleration rate must be in (0, 1)")
        self.start = start
        self.velocity = velocity
        self.rate = rate
    }

    /// 1000·ln r: the decay constant per second (negative).
    private var k: Double { 1000 * log(rate) }

    public func position(at t: Double) -> Double {
        start + velocity * (pow(rate, 1000 * t) - 1) / k
    }

    public func velocity(at t: Double) -> Double {
        velocity * pow(rate, 1000 * t)
    }

    /// Where the fling comes to rest (t → ∞).
    public var restPosition: Double { start - velocity / k }

    /// Time until the remaining distance is below `threshold`: the remaining distance is
    /// −v(t)/k, so this solves |v0|·r^(1000t) = −k·threshold.
    public func duration(threshold: Double = restThreshold) -> Double {
        let speed = abs(velocity)
        guard speed > -k * threshold else { return 0 }
        return log(-k * threshold / speed) / k
    }

    /// The first time the curve reaches `position`, or nil if it stops short of it.
    public func time(toReach position: Double) -> Double? {
        guard velocity != 0 else { return position == start ? 0 : nil }
        let fraction = 1 + (position - start) * k / velocity   // r^(1000t)
        guard fraction > 0, fraction <= 1 else { return nil }
        return log(fraction) / k
    }
}
