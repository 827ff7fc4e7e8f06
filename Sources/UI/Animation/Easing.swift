/// Maps linear progress 0…1 to eased progress 0…1.
public enum Easing: Sendable {
    case linear
    case easeIn
    case easeOut
    case easeInOut

    public func callAsFunction(_ t: Double) -> Double {
        let t = min(1, max(0, t))
        switch self {
        case .linear: return t
        case .easeIn: return t * t * t
        case .easeOut: return 1 - (1 - t) * (1 - t) * (1 - t)
        case .easeInOut: return t < 0.5 ? 4 * t * t * t : 1 - pow3(-2 * t + 2) / 2
        }
    }

    private func pow3(_ x: Double) -> Double { x * x * x }
}
