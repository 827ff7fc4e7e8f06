import Imaging
/// The slideshow as one value the app drives with its clock: idle detection, which photo shows,
/// the cross-fade, and stopping on touch with the way back to where the person was.
/// The app calls `tick(at:)` when `nextDeadline` is reached (one timer, no polling) and draws
/// `frame(at:)` while `isAnimating(at:)`.
public struct SlideshowController: Equatable, Sendable {
    public struct Frame: Equatable, Sendable {
        public var photo: RawPath
        /// The photo fading out, under `photo`; nil when no fade is in progress.
        public var previous: RawPath?
        /// Opacity of `photo` over `previous`, 0...1.
        public var opacity: Double

        public init(photo: RawPath, previous: RawPath?, opacity: Double) {
            self.photo = photo
            self.previous = previous
            self.opacity = opacity
        }
    }

    public private(set) var settings: KioskConfig.Slideshow
    public private(set) var state: SlideshowState
    public private(set) var idle: IdleTracker
    public private(set) var sequencer: SlideshowSequencer
    /// When the photo on screen appeared.
    public private(set) var shownAt: Double?
    public private(set) var fade: Crossfade?
    /// How long the photo on screen stays when not `settings.interval` (a clip playing: its
    /// length); forgotten when the next photo shows.
    public private(set) var slideSeconds: Double?
    private var previous: RawPath?
    /// Held on its photo by a remote "pause": no photo change and no idle start until resumed.
    public private(set) var isPaused = false
    /// Photos shown before the current one, newest last, for a step back (a short list).
    private var history: [RawPath] = []
    static let historyLimit = 100
    /// A timer may fire a hair before its deadline (the UI scheduler's tolerance, a virtual clock
    /// stepped in 1/60 s): that counts as the deadline, or the app would re-arm a zero-second
    /// timer over and over without the photo ever changing.
    static let timerTolerance = 1e-6
    /// After a restart the first start shows the photo that was on screen, not the one after it.
    private var reshowCurrent: Bool

    public init(settings: KioskConfig.Slideshow, photos: [RawPath], seed: UInt64,
                screen: KioskScreen, resumePhoto: RawPath? = nil, now: Double) {
        self.settings = settings
        self.state = .browsing(screen)
        self.idle = IdleTracker(timeout: settings.idleTimeout, now: now)
        self.sequencer = SlideshowSequencer(photos: photos, order: settings.order, seed: seed, current: resumePhoto)
        self.reshowCurrent = resumePhoto.map(photos.contains) ?? false
        if idle.startsInSlideshow { start(at: now) }
    }

    /// New settings (the remote page): the interval and the transition count from the photo on
    /// screen, the order from the next photo. The idle timeout is not a setting and stays.
    public mutating func reconfigure(_ newSettings: KioskConfig.Slideshow) {
        settings = newSettings
        sequencer.setOrder(newSettings.order)
    }

    /// A finger touched the screen. Returns the screen to go back to when this touch stopped the
    /// slideshow; the app then shows it and does not deliver this touch to any view.
    public mutating func touchBegan(at now: Double) -> KioskScreen? {
        idle.touchBegan(at: now)
        guard let screen = state.touch() else { return nil }
        fade = nil
        previous = nil
        shownAt = nil
        return screen
    }

    public mutating func touchEnded(at now: Double) {
        idle.touchEnded(at: now)
    }

    /// Someone is there without touching (a motion sensor): the idle time starts again, a running
    /// slideshow goes on.
    public mutating func noteActivity(at now: Double) {
        idle.noteActivity(at: now)
    }

    /// The person moved to another screen (remembered as the one to come back to).
    public mutating func navigate(to screen: KioskScreen) {
        state.navigate(to: screen)
    }

    /// The library changed. A slideshow that started before the scan had found anything shows
    /// its first photo now; returns true when what the screen shows changed that way.
    @discardableResult
    public mutating func update(photos: [RawPath], at now: Double) -> Bool {
        sequencer.update(photos: photos)
        guard state.isRunning, sequencer.current == nil, !photos.isEmpty else { return false }
        _ = sequencer.advance()
        shownAt = now
        slideSeconds = nil
        fade = nil
        previous = nil
        return true
    }

    public mutating func update(photos: [RawPath]) {
        sequencer.update(photos: photos)
    }

    /// Starts the slideshow now whatever the idle time (a restart that was in the slideshow, or a
    /// "start slideshow" button).
    public mutating func startNow(at now: Double) {
        guard !state.isRunning else { return }
        start(at: now)
    }

    /// Moves on to the next photo now (the one on screen cannot be shown: an unreadable file).
    /// Returns true when the photo changed.
    @discardableResult
    public mutating func skip(at now: Double) -> Bool {
        guard state.isRunning else { return false }
        let old = sequencer.current
        showNext(at: now)
        fade = nil
        previous = nil
        return sequencer.current != old
    }

    /// A step through the photos on request (a remote's next / previous): forward as the
    /// order goes, back through what was shown (in sequential order, before that, the library
    /// order). Returns true when the photo changed; false when not running or nothing to go to.
    @discardableResult
    public mutating func step(forward: Bool, at now: Double) -> Bool {
        guard state.isRunning else { return false }
        let old = sequencer.current
        if forward { showNext(at: now); return sequencer.current != old }
        let photos = Set(sequencer.photos)
        while let last = history.popLast() {
            guard photos.contains(last), last != old else { continue }
            sequencer.jump(to: last)
            show(last, after: old, at: now)
            return true
        }
        guard let before = sequencer.predecessor, before != old else { return false }
        sequencer.jump(to: before)
        show(before, after: old, at: now)
        return true
    }

    /// The photo on screen is shown together with `partner`, the one the order brings next (a
    /// portrait pair, see `PortraitPairing`): the order moves on to it as if it had been shown,
    /// with no transition and no new interval, and a step back passes over the pair as one.
    /// Returns false (nothing changes) when `partner` is not what comes next.
    @discardableResult
    public mutating func showPaired(with partner: RawPath) -> Bool {
        guard state.isRunning, let current = sequencer.current, partner != current else { return false }
        var ahead = sequencer
        guard ahead.advance() == partner else { return false }
        sequencer = ahead
        return true
    }

    /// The photo on screen stays `seconds` from when it appeared instead of the interval (a clip
    /// as long as it plays; nil: the interval again). The next photo gets the interval again.
    public mutating func holdSlide(for seconds: Double?) {
        guard state.isRunning, shownAt != nil else { return }
        slideSeconds = seconds
    }

    /// Holds the slideshow on its photo (and keeps it from starting by itself) until `resume`.
    public mutating func pause() { isPaused = true }

    /// Ends a pause; the photo on screen gets a whole interval from now.
    public mutating func resume(at now: Double) {
        guard isPaused else { return }
        isPaused = false
        if state.isRunning { shownAt = now }
        idle.noteActivity(at: now)
    }

    /// Stops a running slideshow on request (not a touch); returns the screen to go back to. The
    /// idle time starts again from now.
    public mutating func stop(at now: Double) -> KioskScreen? {
        guard let screen = state.touch() else { return nil }
        idle.noteActivity(at: now)
        fade = nil
        previous = nil
        shownAt = nil
        return screen
    }

    /// The next moment `tick(at:)` has something to do: the idle timeout while browsing, the next
    /// photo while running. nil while a finger is down.
    public var nextDeadline: Double? {
        if isPaused { return nil }
        if state.isRunning {
            return shownAt.map { $0 + (slideSeconds ?? settings.interval) }
        }
        return idle.deadline
    }

    /// Starts the slideshow when idle long enough, moves to the next photo when its time is up.
    /// Returns true when what the screen shows changed.
    @discardableResult
    public mutating func tick(at now: Double) -> Bool {
        if isPaused { return false }
        if !state.isRunning {
            guard idle.hasElapsed(at: now) else { return false }
            start(at: now)
            return true
        }
        guard let shownAt, now + Self.timerTolerance >= shownAt + (slideSeconds ?? settings.interval) else { return false }
        showNext(at: now)
        return true
    }

    /// True while a transition (cross-fade or slide) is in progress: the app redraws every frame until it ends.
    public func isAnimating(at now: Double) -> Bool {
        guard state.isRunning, let fade else { return false }
        return !fade.isFinished(at: now)
    }

    /// What to draw at `now`; nil when the slideshow is not running or there is no photo.
    public func frame(at now: Double) -> Frame? {
        guard state.isRunning, let photo = sequencer.current else { return nil }
        if let fade, let previous, !fade.isFinished(at: now) {
            return Frame(photo: photo, previous: previous, opacity: fade.progress(at: now))
        }
        return Frame(photo: photo, previous: nil, opacity: 1)
    }

    private mutating func start(at now: Double) {
        state.start()
        slideSeconds = nil
        previous = nil
        fade = nil
        if !reshowCurrent { _ = sequencer.advance() }
        reshowCurrent = false
        shownAt = now
    }

    private mutating func showNext(at now: Double) {
        let old = sequencer.current
        let new = sequencer.advance()
        if let old, old != new { remember(old) }
        show(new, after: old, at: now)
    }

    private mutating func remember(_ photo: RawPath) {
        history.append(photo)
        if history.count > Self.historyLimit { history.removeFirst() }
    }

    private mutating func show(_ new: RawPath?, after old: RawPath?, at now: Double) {
        shownAt = now
        slideSeconds = nil
        if settings.transition != .none, let old, let new, old != new {
            previous = old
            fade = Crossfade(start: now, duration: settings.transitionDuration)
        } else {
            previous = nil
            fade = nil
        }
    }
}
