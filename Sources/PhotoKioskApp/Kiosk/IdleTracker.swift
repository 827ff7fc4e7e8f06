/// When the slideshow should start: `timeout` seconds after the last touch ended. The app asks for
/// `deadline` and arms one timer for it (no polling); every touch moves the deadline.
/// Times are seconds on the app's monotonic clock, passed in.
public struct IdleTracker: Equatable, Sendable {
    /// With `idle_timeout = 0` the kiosk starts in the slideshow; once someone touches it, it waits
    /// this long before going back (0 would restart the slideshow as soon as the finger lifts).
    public static let minimumInteractiveTimeout: Double = 60

    public let timeout: Double
    public private(set) var lastActivity: Double
    /// Fingers on the screen now: a held finger is not idleness.
    public private(set) var touchesDown = 0

    public init(timeout: Double, now: Double) {
        self.timeout = timeout
        self.lastActivity = now
    }

    /// True when the kiosk should open in the slideshow instead of waiting.
    public var startsInSlideshow: Bool { timeout == 0 }

    public mutating func touchBegan(at now: Double) {
        touchesDown += 1
        lastActivity = max(lastActivity, now)
    }

    public mutating func touchEnded(at now: Double) {
        touchesDown = max(0, touchesDown - 1)
        lastActivity = max(lastActivity, now)
    }

    /// Any other activity that should postpone the slideshow (a key, a mouse move).
    public mutating func noteActivity(at now: Double) {
        lastActivity = max(lastActivity, now)
    }

    /// The moment idleness begins; nil while a finger is down.
    public var deadline: Double? {
        guard touchesDown == 0 else { return nil }
        return lastActivity + (timeout > 0 ? timeout : Self.minimumInteractiveTimeout)
    }

    public func hasElapsed(at now: Double) -> Bool {
        guard let deadline else { return false }
        return now + SlideshowController.timerTolerance >= deadline   // see `timerTolerance`
    }
}
