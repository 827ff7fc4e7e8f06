import Graphics
import UI

/// Decides when a scrolling grid is too fast for its thumbnails to be worth loading.
///
/// A fling carries cells past in a fraction of a second; decoding them all would keep the
/// loader busy with pictures nobody sees (and fill memory with them). As iOS photo grids do,
/// loads wait while the content moves faster than `deferAbove` points per second and are issued
/// once it slows below `resumeBelow` (the end of the deceleration), for the cells still there.
/// The two thresholds differ so that a speed hovering around one of them does not flap.
///
/// A value type fed the content offset with the UI clock's time; the speed is a least-squares
/// fit over the last 100 ms (`VelocityTracker`), so a content that stops moving reads as slow
/// once it has been still for that long.
public struct FlingLoadDeferral: Sendable {
    public var deferAbove: Double
    public var resumeBelow: Double
    public private(set) var isDeferring = false
    private var tracker = VelocityTracker()

    public init(deferAbove: Double = 2500, resumeBelow: Double = 1000) {
        precondition(resumeBelow <= deferAbove, "resume below the deferral speed")
        self.deferAbove = deferAbove
        self.resumeBelow = resumeBelow
    }

    /// Points per second at the last observation.
    public private(set) var speed = 0.0

    /// Records where the content is at `time`; true when `isDeferring` changed.
    public mutating func observe(offset: Point, at time: Double) -> Bool {
        tracker.add(offset, at: time)
        let v = tracker.velocity
        speed = (v.x * v.x + v.y * v.y).squareRoot()
        let deferring = isDeferring ? speed >= resumeBelow : speed > deferAbove
        guard deferring != isDeferring else { return false }
        isDeferring = deferring
        return true
    }

    /// Forgets the motion (the content jumped: a reload or a programmatic scroll).
    public mutating func reset() -> Bool {
        tracker.reset()
        speed = 0
        defer { isDeferring = false }
        return isDeferring
    }
}
