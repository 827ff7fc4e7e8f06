/// The scroll view's first look at a touch: a touch on a moving scroll view stops it (and the
/// content never sees that touch); otherwise, with delaysContentTouches, the content sees the
/// touch only after `contentTouchDelay` without a scroll, or at once when the finger lifts.
final class ScrollTouchRecognizer: GestureRecognizer {
    /// How long a touch on content is held back while the scroll view decides (UIKit's 150 ms).
    static let contentTouchDelay = 0.15

    weak var scrollView: ScrollView?
    private var timer: ScheduledTimer?
    /// This touch stopped the scroll view in motion.
    private var caughtMotion = false

    override func touchesBegan(_ touches: [Touch]) {
        guard state == .possible, let scrollView, self.touches.count == touches.count else { return }
        scrollView.caughtPageSnapTarget = nil
        if scrollView.isMoving {
            scrollView.catchMotion()
            caughtMotion = true
            delaysTouchesBegan = false
            setState(.recognized)
            return
        }
        guard scrollView.delaysContentTouches, let scheduler else {
            setState(.failed)
            return
        }
        delaysTouchesBegan = true
        timer = scheduler.schedule(after: Self.contentTouchDelay) { [weak self] in
            guard let self, self.state == .possible else { return }
            self.setState(.failed)
        }
    }

    override func touchesEnded(_ touches: [Touch]) {
        if state == .possible { setState(.failed) }
    }

    override func reset() {
        timer?.invalidate()
        timer = nil
        // A touch that only stopped the scroll view leaves no drag to settle it or fade the indicators.
        if caughtMotion { scrollView?.settleAfterCatch() }
        caughtMotion = false
        scrollView?.settleAfterStop()
        if scrollView?.isMoving == false { scrollView?.fadeIndicators() }
    }
}
