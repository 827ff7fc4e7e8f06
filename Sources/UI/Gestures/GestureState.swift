/// A gesture recognizer's state. Discrete gestures (tap) go possible → ended or failed;
/// continuous ones (pan, pinch, long press) go possible → began → changed… → ended or
/// cancelled, or possible → failed.
public enum GestureState: Sendable, Hashable {
    case possible
    case began
    case changed
    case ended
    case cancelled
    case failed

    /// A discrete gesture's recognition.
    public static let recognized = GestureState.ended

    /// Every allowed transition, in one table; `GestureRecognizer` checks each change here.
    /// Back to `.possible` happens only through the reset after the touches are gone.
    static let transitions: [GestureState: Set<GestureState>] = [
        .possible: [.began, .ended, .failed],
        .began: [.changed, .ended, .cancelled],
        .changed: [.changed, .ended, .cancelled],
        .ended: [],
        .cancelled: [],
        .failed: [],
    ]

    public func canTransition(to next: GestureState) -> Bool {
        Self.transitions[self]?.contains(next) ?? false
    }

    /// Recognized and still or already reported: began, changed or ended.
    public var isRecognized: Bool { self == .began || self == .changed || self == .ended }

    /// Done for this touch sequence; reset follows once its touches are gone.
    public var isFinished: Bool { self == .ended || self == .cancelled || self == .failed }
}
