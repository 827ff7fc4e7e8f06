import Graphics
import UI

/// One finger as the overlay shows it: its slot, where it has been lately, where it is, and how
/// fast it moves. After the lift the trail stays for a moment, then fades away.
struct FingerTrail {
    /// How long a position stays in the trail.
    static let trailDuration = 0.6
    static let maxPoints = 120

    let slot: Int
    private(set) var points: [(position: Point, time: Double)] = []
    private(set) var liftedAt: Double?
    private var tracker = VelocityTracker()

    init(slot: Int) {
        self.slot = slot
    }

    var current: Point? { points.last?.position }
    var isDown: Bool { liftedAt == nil }
    var velocity: Point { isDown ? tracker.velocity : .zero }

    mutating func add(_ p: Point, at time: Double) {
        points.append((p, time))
        if points.count > Self.maxPoints { points.removeFirst(points.count - Self.maxPoints) }
        tracker.add(p, at: time)
    }

    mutating func lift(at time: Double) {
        liftedAt = time
    }

    /// Drops positions older than the trail lasts (all of them once lifted long enough); returns
    /// the dropped ones so their pixels can be repainted.
    mutating func expire(now: Double) -> [Point] {
        let keepAfter = now - Self.trailDuration
        var dropped: [Point] = []
        let keepAtLeast = isDown ? 1 : 0
        while let first = points.first, first.time < keepAfter && points.count > keepAtLeast {
            dropped.append(first.position)
            points.removeFirst()
        }
        return dropped
    }

    var isGone: Bool { points.isEmpty }
}

/// Counts input frames over the last second: the panel's report rate.
struct RateMeter {
    private var times: [Double] = []

    mutating func add(_ time: Double) {
        times.append(time)
        trim(now: time)
    }

    mutating func trim(now: Double) {
        while let first = times.first, first <= now - 1 { times.removeFirst() }
    }

    /// Frames per second over the frames of the last second (0 once reports stopped coming).
    func rate(now: Double) -> Int {
        let recent = times.filter { $0 > now - 1 }
        guard recent.count >= 2, let first = recent.first, let last = recent.last,
              now - last < 0.5, last > first else { return 0 }
        return Int((Double(recent.count - 1) / (last - first)).rounded())
    }
}
