import Graphics

/// Turns touches into a gesture. Subclasses look at touches and call `setState(_:)`; the
/// window's `TouchRouter` decides who wins: failure requirements (`require(toFail:)`), one
/// recognizer per touch unless both allow simultaneous recognition, and cancelling the view's
/// own touches when a gesture takes over (`cancelsTouchesInView`).
open class GestureRecognizer {
    public internal(set) var state: GestureState = .possible
    public internal(set) weak var view: View?
    public var isEnabled = true {
        didSet { if !isEnabled && state != .possible { forceEnd() } }
    }
    /// When recognized, the view's touches are cancelled (or, if still held, dropped).
    public var cancelsTouchesInView = true
    /// While this recognizer is possible, the view does not see the touches begin.
    public var delaysTouchesBegan = false
    /// Return false to fail instead of beginning.
    public var shouldBegin: ((GestureRecognizer) -> Bool)?
    /// Return true to let both recognizers handle the same touches.
    public var recognizesSimultaneously: ((GestureRecognizer, GestureRecognizer) -> Bool)?
    public var name: String?

    /// Touches this recognizer tracks now.
    public internal(set) var touches: [Touch] = []
    /// A recognition waiting for failure requirements (nil when none).
    public internal(set) var pendingState: GestureState?

    var failureRequirements: [WeakRecognizer] = []
    weak var router: TouchRouter?
    private var actions: [(GestureRecognizer) -> Void] = []

    public init() {}

    /// Runs `action` on every reported state (began, changed, ended, cancelled).
    public func addAction(_ action: @escaping (GestureRecognizer) -> Void) {
        actions.append(action)
    }

    /// This recognizer may recognize only after `other` failed (single tap waits for the double).
    public func require(toFail other: GestureRecognizer) {
        precondition(other !== self, "a recognizer cannot wait for itself")
        failureRequirements.append(WeakRecognizer(other))
    }

    public var numberOfTouches: Int { touches.count }

    /// The centroid of the tracked touches in `view`'s coordinates (window if nil).
    open func location(in view: View?) -> Point {
        guard !touches.isEmpty else { return lastLocation.map { view?.convert($0, from: nil) ?? $0 } ?? .zero }
        let sum = touches.reduce(Point.zero) { $0 + $1.location }
        return view?.convert(sum / Double(touches.count), from: nil) ?? sum / Double(touches.count)
    }

    /// Window location kept after the touches lift (a tap reports where it happened).
    var lastLocation: Point?

    /// The scheduler for timeouts (double-tap window, long press).
    public var scheduler: Scheduler? { view?.window?.scheduler }

    // MARK: For subclasses

    open func touchesBegan(_ touches: [Touch]) {}
    open func touchesMoved(_ touches: [Touch]) {}
    open func touchesEnded(_ touches: [Touch]) {}
    open func touchesCancelled(_ touches: [Touch]) {
        if state == .began || state == .changed { setState(.cancelled) } else if state == .possible { setState(.failed) }
    }

    /// Clears per-gesture state; called when the recognizer returns to `.possible`.
    open func reset() {}

    /// True while the recognizer waits for more touches of the same gesture (a double tap
    /// between its taps), so recognizers that require it to fail keep waiting.
    open var isAwaitingMoreTouches: Bool { false }

    /// Requests a state change. Recognition (possible → began/ended) waits while a failure
    /// requirement is unresolved, and turns into failure if `shouldBegin` says no.
    public func setState(_ next: GestureState) {
        if pendingState != nil {
            // Waiting on a requirement: later changes are folded into the pending recognition,
            // except giving up.
            if next == .failed || next == .cancelled { pendingState = nil; apply(.failed) }
            else if next == .ended { pendingState = .ended }
            return
        }
        guard next != state || next == .changed else { return }
        if state == .possible && (next == .began || next == .ended) {
            if let shouldBegin, !shouldBegin(self) { apply(.failed); return }
            if failureRequirements.contains(where: { $0.value.map { !TouchRouter.hasFailed($0) } ?? false }) {
                pendingState = next
                router?.scheduleResolution()
                return
            }
        }
        apply(next)
    }

    /// The one place a state changes; every change is checked against `GestureState.transitions`.
    func apply(_ next: GestureState) {
        precondition(state.canTransition(to: next), "gesture \(type(of: self)) cannot go from \(state) to \(next)")
        let wasPossible = state == .possible
        state = next
        router?.recognizer(self, didChangeFrom: wasPossible)
        if next != .failed { for action in actions { action(self) } }
    }

    /// Takes the pending recognition now that the requirements failed.
    func applyPending() {
        guard let pending = pendingState else { return }
        pendingState = nil
        apply(pending)
        // The fingers lifted while a continuous gesture waited: it begins and ends at once.
        if pending == .began && touches.isEmpty { apply(.ended) }
    }

    func forceEnd() {
        pendingState = nil
        if state == .began || state == .changed { apply(.cancelled) } else if state == .possible { apply(.failed) }
    }

    func resetIfFinished() {
        guard state.isFinished || (state == .possible && pendingState == nil), touches.isEmpty, !isAwaitingMoreTouches else { return }
        let wasPossible = state == .possible
        state = .possible
        pendingState = nil
        if !wasPossible { lastLocation = nil }
        reset()
    }

    func canRecognizeSimultaneously(with other: GestureRecognizer) -> Bool {
        (recognizesSimultaneously?(self, other) ?? false) || (other.recognizesSimultaneously?(other, self) ?? false)
    }
}

struct WeakRecognizer {
    weak var value: GestureRecognizer?
    init(_ value: GestureRecognizer) { self.value = value }
}
