import Graphics

/// Recognizes a drag once the fingers' centroid moved `threshold` points; then reports a
/// translation that starts at zero (no jump by the threshold) and a velocity from the
/// timestamped touch history. Fingers landing or lifting mid-drag do not make it jump.
public final class PanGestureRecognizer: GestureRecognizer {
    /// UIKit's pan hysteresis; also ScrollViewSuite's DRAG_THRESHOLD.
    public static let defaultThreshold = 10.0

    public var threshold = defaultThreshold
    public var minimumNumberOfTouches = 1
    public var maximumNumberOfTouches = Int.max

    /// Centroid travel in window coordinates, continuous across finger changes.
    private var travel = Point.zero
    private var lastCentroid = Point.zero
    private var translationOrigin = Point.zero
    private var tracker = VelocityTracker()

    public convenience init(action: ((PanGestureRecognizer) -> Void)? = nil) {
        self.init()
        if let action { addAction { action($0 as! PanGestureRecognizer) } }
    }

    /// Movement since the gesture began, in `view`'s coordinate scale (window if nil).
    public func translation(in view: View?) -> Point {
        (travel - translationOrigin) * (1 / (view?.scaleInWindow ?? 1))
    }

    /// Points per second in `view`'s coordinate scale, from the last 100 ms of movement.
    public func velocity(in view: View?) -> Point {
        tracker.velocity * (1 / (view?.scaleInWindow ?? 1))
    }

    private var centroid: Point {
        touches.isEmpty ? lastCentroid : touches.reduce(Point.zero) { $0 + $1.location } / Double(touches.count)
    }

    private var latestTime: Double { touches.map(\.timestamp).max() ?? 0 }

    public override func touchesBegan(_ touches: [Touch]) {
        if self.touches.count == touches.count {
            tracker.reset()
            travel = .zero
            translationOrigin = .zero
        }
        lastCentroid = centroid
        tracker.add(travel, at: latestTime)
    }

    public override func touchesMoved(_ touches: [Touch]) {
        let c = centroid
        travel = travel + (c - lastCentroid)
        lastCentroid = c
        tracker.add(travel, at: latestTime)
        switch state {
        case .possible:
            if travel.length >= threshold && self.touches.count >= minimumNumberOfTouches
                && self.touches.count <= maximumNumberOfTouches {
                translationOrigin = travel
                setState(.began)
            }
        case .began, .changed:
            setState(.changed)
        default:
            break
        }
    }

    public override func touchesEnded(_ touches: [Touch]) {
        // The lift is a sample too: a finger that rested before lifting has no velocity.
        let time = touches.map(\.timestamp).max() ?? latestTime
        let c = centroid
        travel = travel + (c - lastCentroid)
        tracker.add(travel, at: time)
        let remaining = self.touches.filter { t in !touches.contains { $0 === t } }
        if remaining.isEmpty {
            switch state {
            case .began, .changed: setState(.ended)
            case .possible: setState(.failed)
            default: break
            }
        } else {
            lastCentroid = remaining.reduce(Point.zero) { $0 + $1.location } / Double(remaining.count)
        }
    }

    public override func reset() {
        tracker.reset()
        travel = .zero
        translationOrigin = .zero
    }
}
