import Graphics

/// Recognizes a finger held still for `minimumPressDuration`; then reports its moves until it lifts.
public final class LongPressGestureRecognizer: GestureRecognizer {
    public var minimumPressDuration = 0.5
    public var allowableMovement = 10.0
    public var numberOfTouchesRequired = 1

    private var timer: ScheduledTimer?

    public convenience init(action: ((LongPressGestureRecognizer) -> Void)? = nil) {
        self.init()
        if let action { addAction { action($0 as! LongPressGestureRecognizer) } }
    }

    public override func touchesBegan(_ touches: [Touch]) {
        guard state == .possible else { return }
        if self.touches.count > numberOfTouchesRequired { setState(.failed); return }
        guard self.touches.count == numberOfTouchesRequired else { return }
        guard let scheduler else { setState(.failed); return }
        timer?.invalidate()
        timer = scheduler.schedule(after: minimumPressDuration) { [weak self] in
            guard let self, self.state == .possible else { return }
            self.setState(.began)
        }
    }

    public override func touchesMoved(_ touches: [Touch]) {
        switch state {
        case .possible:
            if touches.contains(where: { $0.location.distance(to: $0.startLocation) > allowableMovement }) {
                setState(.failed)
            }
        case .began, .changed:
            setState(.changed)
        default:
            break
        }
    }

    public override func touchesEnded(_ touches: [Touch]) {
        switch state {
        case .possible: setState(.failed)
        case .began, .changed: setState(.ended)
        default: break
        }
    }

    public override func reset() {
        timer?.invalidate()
        timer = nil
    }
}
