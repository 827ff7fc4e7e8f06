import Graphics

/// Where a touch is in its life.
public enum TouchPhase: Sendable, Hashable {
    case began
    case moved
    case ended
    case cancelled
}

/// One finger's change in one input frame, already in window coordinates.
///
/// Platform translates libinput events to these (slot from the multitouch slot, timestamp on
/// the same monotonic base as `UIClock`) and hands a whole frame to `Window.dispatch(_:)`.
public struct TouchEvent: Sendable, Hashable {
    /// The input slot; a slot is reused by later touches, each of which gets a new `Touch.id`.
    public var slot: Int
    public var phase: TouchPhase
    public var location: Point
    /// Seconds, same base as `UIClock.now`.
    public var timestamp: Double

    public init(slot: Int, phase: TouchPhase, location: Point, timestamp: Double) {
        self.slot = slot
        self.phase = phase
        self.location = location
        self.timestamp = timestamp
    }
}
