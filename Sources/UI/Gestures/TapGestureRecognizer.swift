import Graphics

/// Recognizes n taps of m fingers. Taps must follow within `tapInterval` of each other; a
/// finger that moves more than `allowableMovement` fails it. For m > 1 the fingers may land
/// together or one after another (as ScrollViewSuite's two-finger tap), the location is the
/// midpoint of where they landed. To make a single tap wait for a double tap, call
/// `single.require(toFail: double)`; without a double tap the single tap fires at once.
public final class TapGestureRecognizer: GestureRecognizer {
    /// DOUBLE_TAP_DELAY of ScrollViewSuite's TapDetectingImageView.
    public static let tapInterval = 0.35
    public static let allowableMovement = 10.0
    /// How far the next tap of a multi-tap may land from the previous one (UIKit's taps must
    /// also be near each other): two quick taps on different photos are two single taps.
    public static let maximumTapSeparation = 60.0

    public var numberOfTapsRequired = 1
    public var numberOfTouchesRequired = 1

    private var tapsDone = 0
    private var fingersThisTap: [Touch] = []
    private var timer: ScheduledTimer?

    public convenience init(taps: Int = 1, touches: Int = 1, action: ((TapGestureRecognizer) -> Void)? = nil) {
        self.init()
        numberOfTapsRequired = taps
        numberOfTouchesRequired = touches
        if let action { addAction { action($0 as! TapGestureRecognizer) } }
    }

    /// Where the tap happened (the midpoint of where its fingers landed) once recognized.
    public override func location(in view: View?) -> Point {
        guard state == .ended, let tap = lastLocation else { return super.location(in: view) }
        return view?.convert(tap, from: nil) ?? tap
    }

    public override var isAwaitingMoreTouches: Bool {
        state == .possible && pendingState == nil && (tapsDone > 0 || !fingersThisTap.isEmpty)
    }

    public override func touchesBegan(_ touches: [Touch]) {
        guard state == .possible, pendingState == nil else { return }
        if tapsDone > 0, fingersThisTap.isEmpty, let previous = lastLocation,
           touches.contains(where: { $0.startLocation.distance(to: previous) > Self.maximumTapSeparation }) {
            setState(.failed)
            return
        }
        timer?.invalidate()
        fingersThisTap += touches
        if fingersThisTap.count > numberOfTouchesRequired { setState(.failed) }
    }

    public override func touchesMoved(_ touches: [Touch]) {
        guard state == .possible, pendingState == nil else { return }
        if touches.contains(where: { $0.location.distance(to: $0.startLocation) > Self.allowableMovement }) {
            setState(.failed)
        }
    }

    public override func touchesEnded(_ touches: [Touch]) {
        guard state == .possible, pendingState == nil else { return }
        let stillDown = self.touches.filter { t in !touches.contains { $0 === t } }
        guard stillDown.isEmpty else { return }
        if fingersThisTap.count == numberOfTouchesRequired {
            let sum = fingersThisTap.reduce(Point.zero) { $0 + $1.startLocation }
            lastLocation = sum / Double(fingersThisTap.count)
            fingersThisTap.removeAll()
            tapsDone += 1
            if tapsDone == numberOfTapsRequired {
                setState(.recognized)
                return
            }
        }
        // Wait for the next tap (or the missing fingers of this one).
        guard let scheduler else { setState(.failed); return }
        timer = scheduler.schedule(after: Self.tapInterval) { [weak self] in
            guard let self, self.state == .possible, self.pendingState == nil else { return }
            self.setState(.failed)
        }
    }

    public override func reset() {
        timer?.invalidate()
        timer = nil
        tapsDone = 0
        fingersThisTap.removeAll()
    }
}
