/// The resistance felt when dragging past an edge: an overshoot x shows as
/// f(x) = (1 − 1/(x·c/d + 1))·d, which follows the finger at first and never exceeds d
/// (ScrollMechanics RubberBand.swift; c = 0.55, d = viewport size on that axis).
public struct RubberBand: Sendable, Equatable {
    public static let defaultCoefficient = 0.55

    public var coefficient: Double
    public var dimension: Double

    public init(dimension: Double, coefficient: Double = defaultCoefficient) {
        self.dimension = dimension
        self.coefficient = coefficient
    }

    /// The shown distance for an overshoot (sign preserved).
    public func distance(forOvershoot x: Double) -> Double {
        guard dimension > 0 else { return 0 }
        let magnitude = (1 - 1 / (abs(x) * coefficient / dimension + 1)) * dimension
        return x < 0 ? -magnitude : magnitude
    }

    /// The overshoot that shows as `distance` (the inverse of `distance(forOvershoot:)`), so
    /// a drag that catches a bouncing view continues from where it is shown.
    public func overshoot(forDistance distance: Double) -> Double {
        guard dimension > 0 else { return 0 }
        let y = min(abs(distance), dimension * 0.999_999)
        let x = dimension / coefficient * (y / (dimension - y))
        return distance < 0 ? -x : x
    }

    /// The unbanded value that `clamp(_:to:)` shows as `shown`.
    public func unclamp(_ shown: Double, from range: ClosedRange<Double>) -> Double {
        if shown < range.lowerBound { return range.lowerBound + overshoot(forDistance: shown - range.lowerBound) }
        if shown > range.upperBound { return range.upperBound + overshoot(forDistance: shown - range.upperBound) }
        return shown
    }

    /// `value` kept in `range`, with any excess replaced by its rubber-banded distance.
    public func clamp(_ value: Double, to range: ClosedRange<Double>) -> Double {
        if value < range.lowerBound { return range.lowerBound + distance(forOvershoot: value - range.lowerBound) }
        if value > range.upperBound { return range.upperBound + distance(forOvershoot: value - range.upperBound) }
        return value
    }
}
