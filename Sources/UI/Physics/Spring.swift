#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A damped harmonic spring pulling a displacement back to zero; closed-form, so any frame time
/// gives the exact state. The scroll view bounces with mass 1, stiffness 100, ζ = 1
/// (critically damped: the fastest return that never overshoots).
public struct Spring: Sendable, Equatable {
    public static let bounce = Spring(mass: 1, stiffness: 100, dampingRatio: 1)
    /// Displacement below which the spring counts as at rest (points).
    public static let restThreshold = 0.5

    public var mass: Double
    public var stiffness: Double
    public var dampingRatio: Double

    public init(mass: Double, stiffness: Double, dampingRatio: Double) {
        precondition(mass > 0 && stiffness > 0 && dampingRatio > 0, "spring parameters must be positive")
        self.mass = mass
        self.stiffness = stiffness
        self.dampingRatio = dampingRatio
    }

    /// Undamped angular frequency ω0 = √(k/m).
    public var angularFrequency: Double { (stiffness / mass).squareRoot() }

    /// Displacement and velocity at time `t` from displacement `x0` moving at `v0`.
    public func state(at t: Double, displacement x0: Double, velocity v0: Double) -> (displacement: Double, velocity: Double) {
        let w = angularFrequency, z = dampingRatio
        if abs(z - 1) < 1e-9 {
            let b = v0 + w * x0
            let e = exp(-w * t)
            return ((x0 + b * t) * e, (b - w * (x0 + b * t)) * e)
        } else if z < 1 {
            let wd = w * (1 - z * z).squareRoot()
            let b = (v0 + z * w * x0) / wd
            let e = exp(-z * w * t), c = cos(wd * t), s = sin(wd * t)
            let x = e * (x0 * c + b * s)
            return (x, -z * w * x + e * (-x0 * wd * s + b * wd * c))
        } else {
            let root = (z * z - 1).squareRoot()
            let r1 = -w * (z - root), r2 = -w * (z + root)
            let c2 = (v0 - r1 * x0) / (r2 - r1), c1 = x0 - c2
            let e1 = exp(r1 * t), e2 = exp(r2 * t)
            return (c1 * e1 + c2 * e2, c1 * r1 * e1 + c2 * r2 * e2)
        }
    }

    /// At rest: close to the target and too slow to leave it again.
    public func isSettled(displacement x: Double, velocity v: Double, threshold: Double = restThreshold) -> Bool {
        abs(x) < threshold && abs(v) < threshold * angularFrequency
    }
}
