import Imaging
import Logging
import Platform
import UI

/// Makes `KioskSession` real in the running app: every input event passes through its
/// `InputGate` first, one `SessionTimer` is armed at the session's next event (idle timeout, next
/// photo, schedule change; none while a finger is down and nothing is scheduled), the screen is
/// blanked through a `ScreenPowerControl`, the `SlideshowPresenter` shows the slideshow, and a
/// `ResumeSaver` keeps the place the person was for a restart.
public final class KioskSessionDriver {
    /// Changed by the driver and its requests (KioskSessionDriver+Requests.swift) only.
    public internal(set) var session: KioskSession
    /// What blanks the screen; nil when nothing can.
    public var power: (any ScreenPowerControl)? { screenPower.control }

    unowned let app: KioskApp
    let localTime: () -> LocalDateTime
    let logger: Logger
    private var gate = InputGate()
    private let timer: SessionTimer
    private let presenter: SlideshowPresenter
    /// Also switches the TV over CEC when one is attached (KioskSessionDriver+TV.swift).
    let screenPower: ScreenPowerSwitch
    private let resumeSaver: ResumeSaver?
    private let restore: ScreenRestore
    /// Photos in a row that could not be decoded (when all fail, the slideshow waits instead).
    private var failuresInARow = 0
    /// The motion sensor the session listens to (KioskSessionDriver+Presence.swift); nil: none.
    var motionSensor: (any MotionSensor)?

    /// Where the kernel cannot tell the app that the wall clock was set (no `WallClockWatch`:
    /// a virtual clock, or timerfd's cancel-on-set refused), a change (NTP setting the time after
    /// boot on a Pi without a real-time clock) is noticed within this many seconds while a
    /// schedule is configured. With the watch, `KioskApp.wallClockWasSet` re-evaluates at once.
    public static let scheduleRecheck: Double = 300

    init(app: KioskApp, config: KioskConfig, store: ResumeStore?, initial: ResumeState?, power: (any ScreenPowerControl)?,
         seed: UInt64, localTime: @escaping () -> LocalDateTime, logger: Logger) {
        self.app = app
        screenPower = ScreenPowerSwitch(control: power, app: app, logger: logger)
        self.localTime = localTime
        self.logger = logger
        let resume = initial ?? store?.load(logger: logger) ?? ResumeState()
        // The scan has only just started: until it reports, the photo that was on screen stands
        // in for the library so a slideshow resumes with it (the scan's list then replaces it).
        var photos = app.photoPaths
        if photos.isEmpty, let photo = resume.photo, resume.inSlideshow { photos = [photo] }
        session = KioskSession(config: config, photos: photos, seed: seed, resume: resume,
                               now: app.window.scheduler.now, local: localTime())
        restore = ScreenRestore(resume)
        resumeSaver = store.map { ResumeSaver(store: $0, lastSaved: resume, logger: logger) }
        timer = SessionTimer(host: app.host)
        presenter = SlideshowPresenter(app: app, settings: config.slideshow, seed: seed, logger: logger)
        presenter.preparation.onReady = { [weak self] photo in
            self?.failuresInARow = 0
            self?.slideReady(photo)
        }
        presenter.preparation.onBroken = { [weak self] in self?.skipBrokenPhoto($0) }
        presenter.onClipLength = { [weak self] seconds in
            guard let self else { return }
            self.session.holdSlide(for: seconds)
            self.schedule()
        }
    }

    /// Applies the initial state: a dark screen when the schedule says so, the slideshow when
    /// the kiosk starts in it, and the first timer.
    func begin() {
        if !session.screenOn { screenPower.set(on: false, slideshowView: presenter.view) }
        if session.slideshow.state.isRunning { showSlideshowFrame() }
        restore.restoreIfReady(in: app)
        schedule()
    }

    var now: Double { app.window.scheduler.now }

    // MARK: Input

    /// Whether `event` should go on to the views. The timer is armed again only when a touch
    /// (or key) begins or ends: a finger's motion changes nothing the session waits for, and
    /// re-arming reads the wall clock and sets the timerfd twice, many times a second.
    func filter(_ event: InputEvent) -> Bool {
        var changed = false
        let admitted = gate.admits(event, began: { changed = true; return activity() },
                                   ended: { changed = true; session.touchEnded(now: now) })
        if changed { schedule() }
        return admitted
    }

    /// A touch began (or a key was pressed): returns whether it goes on to the views.
    private func activity() -> Bool {
        session.navigate(to: app.currentScreen)
        switch session.touchBegan(now: now, local: localTime()) {
        case .deliver:
            return true
        case .wokeScreen(let returnTo):
            logger.info("screen woken by a touch")
            screenPower.set(on: true, slideshowView: presenter.view)
            if returnTo != nil { stopSlideshow() }
            return false
        case .stoppedSlideshow:
            stopSlideshow()
            return false
        case .ignored:
            return false
        }
    }

    // MARK: Time

    /// Arms the timer at the session's next event.
    func schedule() {
        timer.cancel()
        guard var delay = session.secondsUntilNextEvent(now: now, local: localTime()) else { return }
        if app.wallClockWatch == nil, !session.power.schedule.periods.isEmpty { delay = min(delay, Self.scheduleRecheck) }
        timer.arm(after: delay, now: now) { [weak self] in self?.tick() }
    }

    /// When the session's timer fires next (monotonic seconds); nil when none is armed.
    public var nextTimerDeadline: Double? { timer.deadline }

    /// Re-evaluates the schedule and the slideshow now (the timer calls it; so may a test that
    /// moved the wall clock, or the app after a clock change).
    public func tick() {
        session.navigate(to: app.currentScreen)
        let update = session.tick(now: now, local: localTime())
        if update.screenChanged, !update.screenOn, let presence = session.presence, !presence.isPresent(at: now) {
            logger.info("no motion for \(Int(presence.timeout)) s: the room is empty")
        }
        apply(update)
        schedule()
    }

    func apply(_ update: KioskSession.Update) {
        if update.screenChanged { screenPower.set(on: update.screenOn, slideshowView: presenter.view) }
        if update.slideshowChanged { showSlideshowFrame() }
    }

    // MARK: Slideshow

    public var slideshowView: SlideshowView? { presenter.view }
    public var isSlideshowRunning: Bool { session.slideshow.state.isRunning }
    /// Photo changes that had to wait for a decode because the photo was not prepared ahead.
    public var slideChangesThatWaited: Int { presenter.changesThatWaited }
    /// Photos whose slide is composed and ready to show.
    public var preparedPhotos: Set<RawPath> { presenter.preparation.preparedPhotos }
    /// True while a slide is being decoded or composed.
    public var isPreparing: Bool { presenter.preparation.isPreparing }

    /// True when the slideshow is running and shows its photo fully (for snapshots and tests).
    public var isSlideshowSettled: Bool {
        guard let photo = session.slideshow.sequencer.current else { return false }
        return presenter.isSettled(showing: photo)
    }

    func showSlideshowFrame() {
        guard presenter.showCurrent(of: &session) else { return }
        saveResume(force: presenter.view?.photo == nil)
    }

    private func slideReady(_ photo: RawPath) {
        guard isSlideshowRunning, session.slideshow.sequencer.current == photo, presenter.view?.photo != photo else { return }
        showSlideshowFrame()
    }

    /// A photo that cannot be decoded is passed over at once rather than shown as a gap.
    private func skipBrokenPhoto(_ photo: RawPath) {
        guard isSlideshowRunning, session.slideshow.sequencer.current == photo else { return }
        // When every photo fails, wait for the interval instead of trying them all in a loop.
        failuresInARow += 1
        guard failuresInARow < session.slideshow.sequencer.photos.count else { return }
        if session.skipPhoto(now: now), session.slideshow.sequencer.current != photo { showSlideshowFrame() }
        schedule()
    }

    func stopSlideshow() {
        presenter.stop()
        app.overlayScreenChanged()
        logger.info("slideshow stopped")
        saveResume(force: true)
    }

    /// The display changed size (another screen was connected): slides are composed again.
    func screenResized() {
        guard presenter.resize() else { return }
        showSlideshowFrame()
    }

    // MARK: Settings

    /// New settings from the remote page (`KioskApp.applySettings`): the slideshow and the screen
    /// schedule follow them now, and the timer is armed for the new interval.
    func reconfigure(_ config: KioskConfig) {
        presenter.reconfigure(config.slideshow)
        session.navigate(to: app.currentScreen)
        apply(session.reconfigure(config, now: now, local: localTime()))
        schedule()
    }

    // MARK: Library and resume

    /// The photo list changed (scan batch, folder watch).
    func libraryDidChange() {
        let firstPhoto = session.update(photos: app.photoPaths, now: now)
        restore.restoreIfReady(in: app)
        if firstPhoto || (isSlideshowRunning && presenter.view?.photo == nil) { showSlideshowFrame() }
        schedule()
    }

    /// Saves where the kiosk is (also called by the CLI when it stops); see `ResumeSaver`.
    public func saveResume(force: Bool = false) {
        guard let resumeSaver else { return }
        session.navigate(to: app.currentScreen)
        resumeSaver.save(session.resumeState, now: now, force: force)
    }
}
