/// Whether the slideshow runs, and the screen to return to when a touch stops it, so the person
/// lands exactly where they were (not on the photo the slideshow happened to show).
public enum SlideshowState: Equatable, Sendable {
    case browsing(KioskScreen)
    case running(returnTo: KioskScreen)

    public var isRunning: Bool {
        if case .running = self { return true }
        return false
    }

    /// The screen the person is on, or will be back on when the slideshow stops.
    public var screen: KioskScreen {
        switch self {
        case .browsing(let s), .running(returnTo: let s): s
        }
    }

    public mutating func start() {
        if case .browsing(let s) = self { self = .running(returnTo: s) }
    }

    /// A touch: stops a running slideshow and returns the screen to go back to (the touch must then
    /// not act on anything else). Returns nil when the slideshow was not running.
    public mutating func touch() -> KioskScreen? {
        guard case .running(let s) = self else { return nil }
        self = .browsing(s)
        return s
    }

    /// The person moved (scrolled, opened a photo); ignored while the slideshow runs.
    public mutating func navigate(to screen: KioskScreen) {
        if case .browsing = self { self = .browsing(screen) }
    }
}
