import Imaging
/// The kiosk's life in one value: the slideshow (monotonic clock) and the screen's power schedule
/// (local wall time), with the rules that join them:
/// - every touch counts as activity; a touch that wakes a dark screen or stops the slideshow is
///   swallowed (it must not also press whatever is under the finger);
/// - while the screen is off the slideshow neither starts nor advances (nothing to decode or draw);
///   when the schedule turns the screen on after a long night the slideshow starts right away;
/// - with a motion sensor (`sensePresence`), the screen is on only while someone is there: the
///   schedule still wins while it has the screen off (unless motion may wake it then), a request
///   from a remote wins over both, motion counts as activity for the idle slideshow.
/// The app calls `tick` after `secondsUntilNextEvent` and applies what it returns.
public struct KioskSession: Equatable, Sendable {
    public enum TouchOutcome: Equatable, Sendable {
        /// An ordinary touch: deliver it to the views.
        case deliver
        /// It woke the blank screen: turn the screen on; if `returnTo` is set, show that screen
        /// (a slideshow was running in the dark). Do not deliver the touch.
        case wokeScreen(returnTo: KioskScreen?)
        /// It stopped the slideshow: show `returnTo`. Do not deliver the touch.
        case stoppedSlideshow(returnTo: KioskScreen)
        /// The screen is off and touches do not wake it (wake_minutes = 0): ignore the touch.
        case ignored
    }

    public struct Update: Equatable, Sendable {
        public var screenOn: Bool
        /// The screen's power changed since the previous `tick`: apply `screenOn` (DPMS/backlight).
        public var screenChanged: Bool
        /// The slideshow started or moved to another photo: redraw from `slideshow.frame(at:)`.
        public var slideshowChanged: Bool
    }

    public private(set) var slideshow: SlideshowController
    public private(set) var power: ScreenPower
    public private(set) var screenOn: Bool
    /// Whether someone is in the room; nil: no motion sensor, the room is never empty.
    public private(set) var presence: MotionPresence?
    /// Motion wakes the screen while the schedule has it off too.
    private var presenceWakesDuringSchedule = false
    /// The schedule `power` was made from, to tell whether a new configuration changes it.
    private var currentSchedule: KioskConfig.Schedule

    public init(config: KioskConfig, photos: [RawPath], seed: UInt64, resume: ResumeState,
                now: Double, local: LocalDateTime) {
        power = ScreenPower(config: config.schedule)
        currentSchedule = config.schedule
        screenOn = power.decision(at: local).screenOn
        slideshow = SlideshowController(settings: config.slideshow, photos: photos, seed: seed, screen: resume.screen,
                                        resumePhoto: resume.photo, now: now)
        if resume.inSlideshow && !slideshow.state.isRunning {
            slideshow.startNow(at: now)
        }
    }

    /// New settings from the remote page: the slideshow's and the screen schedule's. A screen
    /// switched on or off on request, or woken by a touch, follows the new schedule from now.
    public mutating func reconfigure(_ config: KioskConfig, now: Double, local: LocalDateTime) -> Update {
        slideshow.reconfigure(config.slideshow)
        if config.schedule != currentSchedule {
            power = ScreenPower(config: config.schedule)
            currentSchedule = config.schedule
        }
        return tick(now: now, local: local)
    }

    /// What to save for a restart.
    public var resumeState: ResumeState {
        ResumeState(screen: slideshow.state.screen, photo: slideshow.sequencer.current,
                    inSlideshow: slideshow.state.isRunning)
    }

    public mutating func touchBegan(now: Double, local: LocalDateTime) -> TouchOutcome {
        let returnTo = slideshow.touchBegan(at: now)
        let wasOn = screenOn
        let wokeBySchedule = power.touch(at: local)
        // A touch is presence, but not while the schedule keeps the screen off (wake_minutes = 0).
        if power.decision(at: local).screenOn { presence?.noteActivity(at: now) }
        let on = shouldBeOn(now: now, local: local)
        if wokeBySchedule || (on && !wasOn) {
            screenOn = true
            return .wokeScreen(returnTo: returnTo)
        }
        if !on { return .ignored }
        if let returnTo { return .stoppedSlideshow(returnTo: returnTo) }
        return .deliver
    }

    public mutating func touchEnded(now: Double) {
        slideshow.touchEnded(at: now)
    }

    public mutating func navigate(to screen: KioskScreen) { slideshow.navigate(to: screen) }

    public mutating func update(photos: [RawPath]) { slideshow.update(photos: photos) }

    /// The photo on screen cannot be shown: the next one now (nothing while the screen is off).
    @discardableResult
    public mutating func skipPhoto(now: Double) -> Bool { screenOn ? slideshow.skip(at: now) : false }

    /// The library changed; true when a running slideshow that had no photo now shows one.
    @discardableResult
    public mutating func update(photos: [RawPath], now: Double) -> Bool { slideshow.update(photos: photos, at: now) }

    /// A motion sensor is there: from `now` on, the screen blanks after `settings.timeout` seconds
    /// without motion or touch (counted from now even if nothing ever moves).
    public mutating func sensePresence(_ settings: KioskConfig.Presence, now: Double, local: LocalDateTime) -> Update {
        presence = MotionPresence(timeout: Double(settings.timeout), now: now)
        presenceWakesDuringSchedule = settings.wakesDuringSchedule
        return tick(now: now, local: local)
    }

    /// The motion sensor's line changed (`active`: it sees motion now).
    public mutating func motion(active: Bool, now: Double, local: LocalDateTime) -> Update {
        if presence != nil {
            presence?.motion(active: active, at: now)
            slideshow.noteActivity(at: now)
        }
        return tick(now: now, local: local)
    }

    /// The schedule (with touch wakes and requests) and, under it, whether anyone is there.
    private func shouldBeOn(now: Double, local: LocalDateTime) -> Bool {
        let scheduled = power.decision(at: local).screenOn
        guard let presence, !power.isRequested(at: local) else { return scheduled }
        let present = presence.isPresent(at: now)
        return scheduled ? present : (presenceWakesDuringSchedule && present)
    }

    /// Seconds until `tick` has something to do; nil: nothing until a touch or a library change.
    public func secondsUntilNextEvent(now: Double, local: LocalDateTime) -> Double? {
        var soonest: Double?
        if let change = power.decision(at: local).nextChange {
            soonest = Double(change.localSeconds - local.localSeconds)
        }
        if let absence = presence?.absenceDeadline, absence > now {
            soonest = min(soonest ?? .infinity, absence - now)
        }
        if screenOn, let deadline = slideshow.nextDeadline {
            soonest = min(soonest ?? .infinity, max(0, deadline - now))
        }
        return soonest
    }

    /// The screen switched on or off on request (a remote), until the schedule next changes or a
    /// touch wakes it.
    public mutating func requestScreen(on: Bool, now: Double, local: LocalDateTime) -> Update {
        power.request(screenOn: on, at: local)
        return tick(now: now, local: local)
    }

    /// A portrait pair is on screen: the order moves on to its second photo (see `SlideshowController.showPaired`).
    @discardableResult
    public mutating func showPaired(with partner: RawPath) -> Bool { slideshow.showPaired(with: partner) }
    public mutating func pause() { slideshow.pause() }
    public mutating func holdSlide(for seconds: Double?) { slideshow.holdSlide(for: seconds) }
    public mutating func resume(now: Double) { slideshow.resume(at: now) }
    public mutating func startSlideshow(now: Double) { slideshow.startNow(at: now) }
    public mutating func stopSlideshow(now: Double) -> KioskScreen? { slideshow.stop(at: now) }
    @discardableResult
    public mutating func step(forward: Bool, now: Double) -> Bool { screenOn ? slideshow.step(forward: forward, at: now) : false }

    public mutating func tick(now: Double, local: LocalDateTime) -> Update {
        let on = shouldBeOn(now: now, local: local)
        let changed = on != screenOn
        screenOn = on
        let slideshowChanged = on ? slideshow.tick(at: now) : false
        return Update(screenOn: on, screenChanged: changed, slideshowChanged: slideshowChanged)
    }
}
