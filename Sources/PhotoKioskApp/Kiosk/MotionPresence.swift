/// Whether someone is in the room, from a motion sensor: present while the sensor reports motion
/// and for `timeout` seconds after it last did (or after the last touch). Times are seconds on the
/// app's monotonic clock, passed in. The count starts when the kiosk starts, so a room that is empty
/// from the start goes dark too (picframe's bug #703 was a timer that only began at the first motion).
public struct MotionPresence: Equatable, Sendable {
    public let timeout: Double
    /// The last moment someone was seen: motion ended, a touch, or the start.
    public private(set) var lastSeen: Double
    /// The sensor reports motion now (a PIR module holds its line active while it sees movement).
    public private(set) var motionNow = false

    public init(timeout: Double, now: Double) {
        self.timeout = timeout
        lastSeen = now
    }

    /// The sensor's line changed: `active` is true while it sees motion.
    public mutating func motion(active: Bool, at now: Double) {
        motionNow = active
        lastSeen = max(lastSeen, now)
    }

    /// A touch: someone is there, whatever the sensor saw.
    public mutating func noteActivity(at now: Double) {
        lastSeen = max(lastSeen, now)
    }

    public func isPresent(at now: Double) -> Bool {
        motionNow || now < lastSeen + timeout
    }

    /// When the room counts as empty if nothing moves; nil while the sensor reports motion.
    public var absenceDeadline: Double? { motionNow ? nil : lastSeen + timeout }
}
