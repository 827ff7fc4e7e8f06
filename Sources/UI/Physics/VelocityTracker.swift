import Graphics

/// Estimates a finger's velocity from timestamped positions: a least-squares line through the
/// samples of the last 100 ms (Flutter's tracker uses the same horizon; Zynga's scroller too).
/// A finger that rested longer than the horizon before lifting has velocity zero.
public struct VelocityTracker: Sendable {
    public static let horizon = 0.1
    static let maxSamples = 20

    private var samples: [(time: Double, position: Point)] = []

    public init() {}

    public mutating func add(_ position: Point, at time: Double) {
        samples.append((time, position))
        if samples.count > Self.maxSamples { samples.removeFirst(samples.count - Self.maxSamples) }
    }

    public mutating func reset() {
        samples.removeAll()
    }

    /// Points per second, from the samples no older than `horizon` before the newest one.
    public var velocity: Point {
        guard let last = samples.last else { return .zero }
        let recent = samples.filter { last.time - $0.time <= Self.horizon + 1e-9 }
        guard recent.count >= 2 else { return .zero }
        let n = Double(recent.count)
        let meanT = recent.reduce(0) { $0 + $1.time } / n
        let meanX = recent.reduce(0) { $0 + $1.position.x } / n
        let meanY = recent.reduce(0) { $0 + $1.position.y } / n
        var stt = 0.0, stx = 0.0, sty = 0.0
        for s in recent {
            let dt = s.time - meanT
            stt += dt * dt
            stx += dt * (s.position.x - meanX)
            sty += dt * (s.position.y - meanY)
        }
        guard stt > 1e-12 else { return .zero }
        return Point(x: stx / stt, y: sty / stt)
    }
}
