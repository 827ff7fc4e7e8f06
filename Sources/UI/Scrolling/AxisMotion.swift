/// One axis of a released scroll view: a fling that decays, and a spring that takes over where
/// the fling runs into an edge (or that pulls a rubber-banded offset back, or snaps to a page).
/// A value type stepped with absolute times, so any frame rate gives the same positions.
struct AxisMotion: Equatable {
    enum Phase: Equatable {
        case decelerating(DecelerationCurve)
        /// Spring toward `target`, starting from `displacement` at `velocity`.
        case springing(target: Double, displacement: Double, velocity: Double)
        case resting(Double)
    }

    var phase: Phase
    var startTime: Double
    let range: ClosedRange<Double>
    let bounces: Bool
    let spring: Spring

    /// The motion after a release at `position` moving at `velocity` (points/s).
    init(position: Double, velocity: Double, time: Double, range: ClosedRange<Double>, bounces: Bool,
         rate: Double, spring: Spring = .bounce) {
        self.range = range
        self.bounces = bounces
        self.spring = spring
        self.startTime = time
        if !range.contains(position) {
            let edge = position < range.lowerBound ? range.lowerBound : range.upperBound
            phase = .springing(target: edge, displacement: position - edge, velocity: bounces ? velocity : 0)
        } else if DecelerationCurve(start: position, velocity: velocity, rate: rate).duration() > 0 {
            phase = .decelerating(DecelerationCurve(start: position, velocity: velocity, rate: rate))
        } else {
            phase = .resting(position)
        }
    }

    /// A spring from `position` to `target` (page snapping).
    init(springFrom position: Double, to target: Double, velocity: Double, time: Double, spring: Spring = .bounce) {
        range = target...target
        bounces = true
        self.spring = spring
        startTime = time
        phase = .springing(target: target, displacement: position - target, velocity: velocity)
    }

    var isResting: Bool {
        if case .resting = phase { return true }
        return false
    }

    /// The position at `time`; moves to later phases as they begin.
    mutating func position(at time: Double) -> Double {
        switch phase {
        case .resting(let x):
            return x
        case .decelerating(let curve):
            let t = time - startTime
            let x = curve.position(at: t)
            if !range.contains(x) {
                let edge = x < range.lowerBound ? range.lowerBound : range.upperBound
                guard bounces, let hit = curve.time(toReach: edge) else {
                    phase = .resting(edge)
                    return edge
                }
                // The fling's velocity at the edge feeds the spring (ScrollMechanics' hand-over).
                phase = .springing(target: edge, displacement: 0, velocity: curve.velocity(at: hit))
                startTime += hit
                return position(at: time)
            }
            if t >= curve.duration() {
                phase = .resting(curve.restPosition)
                return curve.restPosition
            }
            return x
        case .springing(let target, let displacement, let velocity):
            let s = spring.state(at: time - startTime, displacement: displacement, velocity: velocity)
            if spring.isSettled(displacement: s.displacement, velocity: s.velocity) {
                phase = .resting(target)
                return target
            }
            return target + s.displacement
        }
    }
}
