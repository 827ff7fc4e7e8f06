import Graphics

/// Recognizes two fingers moving apart or together. `scale` is the fingers' distance over their
/// distance when the second finger landed; `location(in:)` is their midpoint (the centroid a
/// zoom keeps under the fingers).
public final class PinchGestureRecognizer: GestureRecognizer {
    /// Distance change (points) before a pinch begins, so a two-finger tap or pan is not a pinch.
    public static let hysteresis = 5.0

    public private(set) var scale = 1.0
    private var startDistance = 0.0

    public convenience init(action: ((PinchGestureRecognizer) -> Void)? = nil) {
        self.init()
        if let action { addAction { action($0 as! PinchGestureRecognizer) } }
    }

    private var pair: (Touch, Touch)? {
        touches.count >= 2 ? (touches[0], touches[1]) : nil
    }

    private var distance: Double {
        guard let (a, b) = pair else { return 0 }
        return a.location.distance(to: b.location)
    }

    public override func location(in view: View?) -> Point {
        guard let (a, b) = pair else { return super.location(in: view) }
        let mid = (a.location + b.location) / 2
        return view?.convert(mid, from: nil) ?? mid
    }

    public override func touchesBegan(_ touches: [Touch]) {
        if state == .possible && self.touches.count == 2 && touches.contains(where: { $0 === self.touches[1] }) {
            startDistance = max(distance, 1)
            scale = 1
        }
    }

    public override func touchesMoved(_ touches: [Touch]) {
        guard pair != nil, startDistance > 0 else { return }
        let d = distance
        switch state {
        case .possible:
            if abs(d - startDistance) > Self.hysteresis {
                scale = d / startDistance
                setState(.began)
            }
        case .began, .changed:
            scale = d / startDistance
            setState(.changed)
        default:
            break
        }
    }

    public override func touchesEnded(_ touches: [Touch]) {
        let liftsPair = pair.map { p in touches.contains { $0 === p.0 || $0 === p.1 } } ?? false
        let remaining = self.touches.count - touches.count
        switch state {
        case .began, .changed:
            if liftsPair {
                lastLocation = location(in: nil)
                setState(.ended)
            }
        case .possible:
            if remaining == 0 { setState(.failed) } else if liftsPair { startDistance = 0 }
        default:
            break
        }
    }

    public override func reset() {
        scale = 1
        startDistance = 0
    }
}
