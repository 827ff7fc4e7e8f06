import Graphics
import Imaging
import Logging
import Platform
import UI

/// Makes `KioskSession` real in the running app: every input event passes through here first
/// (a touch that stops the slideshow or wakes a dark screen goes no further), one scheduler timer
/// is armed at the session's next event (idle timeout, next photo, schedule change; none while a
/// finger is down and nothing is scheduled), the screen is blanked through a `ScreenPowerControl`,
/// and the place the person was is saved for a restart.
///
/// The slideshow decodes screen-sized photos through the app's `ImageLoader` and composes each
/// into a slide once; the next photo is prepared while the current one shows, so a change never
/// waits for a decode.
public final class KioskLife {
    public private(set) var session: KioskSession
    public private(set) var slideshowView: SlideshowView?
    public let power: (any ScreenPowerControl)?

    private unowned let app: KioskApp
    private let settings: KioskConfig.Slideshow
    private let store: ResumeStore?
    private let localTime: () -> LocalDateTime
    private let logger: Logger
    private enum Timer {
        case loop(EventLoop.TimerID)
        case ui(ScheduledTimer)
    }
    private var timer: Timer?
    /// The screen to reopen once the library scan has found its photo (after a restart).
    private var pendingRestore: KioskScreen?
    /// Slots with a finger down, and those whose touch stopped the slideshow or woke the screen
    /// (their moves and lift are swallowed too).
    private var fingersDown: Set<Int> = []
    private var swallowed: Set<Int> = []
    /// Composed slides by their first photo's path: the one on screen and the next one (at most a few).
    private var slides: [RawPath: ComposedSlide] = [:]
    /// Decodes in flight: a slide's photo, or the photo it may pair with.
    private var loads: [LoadSlot: LoadTicket] = [:]
    private struct LoadSlot: Hashable {
        let slide: RawPath
        let isPartner: Bool
    }
    /// Picks each photo's Ken Burns point of interest (the same seed as the shuffle).
    private let seed: UInt64
    private var hiddenBeneath: [View] = []
    private var lastSaved: ResumeState?
    private var lastSaveTime = -Double.infinity
    private var failuresInARow = 0
    private var saveFailed = false
    private var reportedBroken: Set<RawPath> = []
    private lazy var workshop = SlideWorkshop(loop: app.host.loop)
    private var composing: Set<RawPath> = []

    /// A wall-clock change (NTP setting the time after boot on a Pi without a real-time clock)
    /// is noticed within this many seconds while a schedule is configured.
    public static let scheduleRecheck: Double = 300
    /// While the slideshow runs, its position is saved at most this often (SD cards wear).
    public static let slideshowSaveInterval: Double = 60

    init(app: KioskApp, config: KioskConfig, store: ResumeStore?, initial: ResumeState?, power: (any ScreenPowerControl)?,
         seed: UInt64, localTime: @escaping () -> LocalDateTime, logger: Logger) {
        self.app = app
        self.settings = config.slideshow
        self.seed = seed
        self.store = store
        self.power = power
        self.localTime = localTime
        self.logger = logger
        let resume = initial ?? store?.load(logger: logger) ?? ResumeState()
        // The scan has only just started: until it reports, the photo that was on screen stands
        // in for the library so a slideshow resumes with it (the scan's list then replaces it).
        var photos = app.photoPaths
        if photos.isEmpty, let photo = resume.photo, resume.inSlideshow { photos = [photo] }
        session = KioskSession(config: config, photos: photos, seed: seed, resume: resume,
                               now: app.window.scheduler.now, local: localTime())
        pendingRestore = resume.screen == .grid(scrollOffset: 0) ? nil : resume.screen
        lastSaved = resume
    }

    /// Applies the initial state: a dark screen when the schedule says so, the slideshow when
    /// the kiosk starts in it, and the first timer.
    func begin() {
        if !session.screenOn { applyPower(false) }
        if session.slideshow.state.isRunning { showSlideshowFrame() }
        restoreIfReady()
        schedule()
    }

    private var now: Double { app.window.scheduler.now }

    // MARK: Input

    /// Whether `event` should go on to the views.
    func filter(_ event: InputEvent) -> Bool {
        defer { schedule() }
        switch event {
        case let .touch(slot, phase, _, _):
            switch phase {
            case .down:
                guard !fingersDown.contains(slot) else { return !swallowed.contains(slot) }
                fingersDown.insert(slot)
                if activity() { return true }
                swallowed.insert(slot)
                return false
            case .motion:
                return !swallowed.contains(slot)
            case .up, .cancel:
                if fingersDown.remove(slot) != nil { session.touchEnded(now: now) }
                return swallowed.remove(slot) == nil
            }
        case let .key(_, pressed, _):
            guard pressed else { return true }
            let deliver = activity()
            session.touchEnded(now: now)
            return deliver
        case .frame, .deviceAdded, .deviceRemoved:
            return true
        }
    }

    /// A touch began (or a key was pressed): returns whether it goes on to the views.
    private func activity() -> Bool {
        session.navigate(to: app.currentScreen)
        switch session.touchBegan(now: now, local: localTime()) {
        case .deliver:
            return true
        case .wokeScreen(let returnTo):
            logger.info("screen woken by a touch")
            applyPower(true)
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

    /// Arms the one timer at the session's next event. It is an event-loop timer, not a UI one:
    /// the window counts as settled while the slideshow merely waits for its next photo. On a
    /// virtual clock (a fast replay) it is a UI timer, because only the window's deadlines move
    /// that clock.
    private func schedule() {
        cancelTimer()
        nextTimerDeadline = nil
        guard var delay = session.secondsUntilNextEvent(now: now, local: localTime()) else { return }
        if !session.power.schedule.periods.isEmpty { delay = min(delay, Self.scheduleRecheck) }
        nextTimerDeadline = now + delay
        let fire = { [weak self] in
            self?.timer = nil
            self?.tick()
        }
        timer = app.host.isOnVirtualClock
            ? .ui(app.window.scheduler.schedule(after: delay, fire))
            : .loop(app.host.loop.addTimer(after: delay, fire))
    }

    private func cancelTimer() {
        switch timer {
        case .loop(let id): app.host.loop.cancelTimer(id)
        case .ui(let scheduled): scheduled.invalidate()
        case nil: break
        }
        timer = nil
    }

    /// When the session's timer fires next (monotonic seconds); nil when none is armed.
    public private(set) var nextTimerDeadline: Double?

    /// Re-evaluates the schedule and the slideshow now (the timer calls it; so may a test that
    /// moved the wall clock, or the app after a clock change).
    public func tick() {
        session.navigate(to: app.currentScreen)
        apply(session.tick(now: now, local: localTime()))
        schedule()
    }

    // MARK: Requests (through KioskApp.perform)

    func requestScreen(on: Bool) {
        apply(session.requestScreen(on: on, now: now, local: localTime()))
        logger.info("screen \(on ? "on" : "off") on request")
        schedule()
    }

    func requestSlideshow(on: Bool) {
        session.navigate(to: app.currentScreen)
        if on {
            guard !isSlideshowRunning else { return }
            session.startSlideshow(now: now)
            showSlideshowFrame()
        } else if session.stopSlideshow(now: now) != nil {
            stopSlideshow()
        }
        schedule()
    }

    /// True when the photo changed.
    func requestStep(forward: Bool) -> Bool {
        guard session.step(forward: forward, now: now) else { return false }
        showSlideshowFrame()
        schedule()
        return true
    }

    func requestPause(_ paused: Bool) {
        if paused { session.pause() } else { session.resume(now: now) }
        logger.info("slideshow \(paused ? "paused" : "resumed") on request")
        schedule()
    }

    private func apply(_ update: KioskSession.Update) {
        if update.screenChanged { applyPower(update.screenOn) }
        if update.slideshowChanged { showSlideshowFrame() }
    }

    private func applyPower(_ on: Bool) {
        guard let power else { return }
        if !on { slideshowView?.stopAnimating() }
        do {
            try power.setScreenOn(on)
            logger.info("screen \(on ? "on" : "off") (\(power.powerControlName))")
        } catch {
            logger.warning("cannot switch the screen \(on ? "on" : "off"): \(error)")
        }
        if on { app.window.setNeedsDisplayAll() }
        app.infoOverlay?.screenPowerChanged(on: on)
    }

    // MARK: Slideshow

    public var isSlideshowRunning: Bool { session.slideshow.state.isRunning }
    /// Photo changes that had to wait for a decode because the photo was not prepared ahead.
    public private(set) var slideChangesThatWaited = 0
    /// Photos whose slide is composed and ready to show.
    public var preparedPhotos: Set<RawPath> { Set(slides.keys) }
    /// True while a slide is being decoded or composed.
    public var isPreparing: Bool { !loads.isEmpty || !composing.isEmpty }

    /// True when the slideshow is running and shows its photo fully (for snapshots and tests).
    public var isSlideshowSettled: Bool {
        guard let view = slideshowView, let photo = session.slideshow.sequencer.current else { return false }
        return view.photos.contains(photo) && view.isSettled
    }

    /// The size slides are composed at: the screen's, or larger for Ken Burns to move within.
    private var slideSize: Size {
        let screen = app.window.bounds.size
        guard settings.kenBurns else { return screen }
        return Size(width: (screen.width * KenBurnsPath.margin).rounded(), height: (screen.height * KenBurnsPath.margin).rounded())
    }

    /// The next two photos in the order after the current one (the same value ticked at its
    /// deadlines: the shuffle is seeded), so the next slide and the photo it may pair with are
    /// prepared ahead.
    private func upcoming() -> (next: RawPath?, afterNext: RawPath?) {
        var ahead = session.slideshow
        var found: [RawPath] = []
        var last = ahead.sequencer.current
        for _ in 0..<2 {
            guard let deadline = ahead.nextDeadline, ahead.tick(at: deadline),
                  let candidate = ahead.sequencer.current, candidate != last else { break }
            found.append(candidate)
            last = candidate
        }
        return (found.first, found.count > 1 ? found[1] : nil)
    }

    private func showSlideshowFrame() {
        guard let photo = session.slideshow.sequencer.current else { return }
        let view = slideshowView ?? makeSlideshowView()
        var (next, afterNext) = upcoming()
        if view.photos.count > 1, view.photos.last == photo {
            // The second photo of the pair on screen: it is shown already.
        } else if let slide = slides[photo], isStillValid(slide) {
            let first = view.photo == nil
            if slide.photos.count > 1 {
                session.showPaired(with: slide.photos[1])   // the order moves on past the pair
                (next, afterNext) = upcoming()
            }
            view.show(slide, style: first ? .crossfade : settings.transition, duration: settings.transitionDuration,
                      kenBurns: kenBurns(for: slide))
            app.overlaySlideshowShows(photo)
            slides = slides.filter { $0.key == photo || $0.key == next }
        } else {
            slides[photo] = nil   // a pair whose second photo is no longer next (the library changed)
            if view.photo != nil { slideChangesThatWaited += 1 }
            prepare(photo, partner: next)   // shown when it arrives (see `slideReady`)
        }
        if let next { prepare(next, partner: afterNext) }
        saveResume(force: view.photo == nil)
    }

    /// A single slide always is; a pair while its second photo is still the one that comes next.
    private func isStillValid(_ slide: ComposedSlide) -> Bool {
        guard slide.photos.count > 1 else { return true }
        var ahead = session.slideshow
        return ahead.showPaired(with: slide.photos[1])
    }

    /// The slide's Ken Burns path over its whole time on screen (fade in to fade out); nil when
    /// the effect is off.
    private func kenBurns(for slide: ComposedSlide) -> (path: KenBurnsPath, seconds: Double)? {
        guard settings.kenBurns, let photo = slide.photos.first else { return nil }
        let focus = KenBurnsPath.focus(for: photo, seed: seed, in: slide.content)
        let path = KenBurnsPath(slide: slide.bitmap.size, screen: app.window.bounds.size, focus: focus, content: slide.content)
        return (path, settings.interval + settings.transitionDuration)
    }

    private func makeSlideshowView() -> SlideshowView {
        let view = SlideshowView(frame: app.window.bounds)
        view.onSettled = { [weak self] in self?.hideScreensBeneath() }
        app.window.addSubview(view)
        slideshowView = view
        logger.info("slideshow started")
        return view
    }

    /// Decodes `photo` at slide size and composes its slide: with `partner` (the photo after it)
    /// when portrait pairing is on and both are narrow for the screen.
    private func prepare(_ photo: RawPath, partner: RawPath?) {
        guard slides[photo] == nil, loads[LoadSlot(slide: photo, isPartner: false)] == nil,
              loads[LoadSlot(slide: photo, isPartner: true)] == nil, !composing.contains(photo) else { return }
        let screen = app.window.bounds.size
        decode(photo, for: LoadSlot(slide: photo, isPartner: false)) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let first):
                guard self.settings.pairPortraits, let partner, partner != photo,
                      PortraitPairing.isPairable(first.size, screen: screen) else {
                    return self.compose([photo], [first])
                }
                self.decode(partner, for: LoadSlot(slide: photo, isPartner: true)) { [weak self] result in
                    // A partner that cannot be read shows nothing here: its own turn reports it.
                    if case .success(let second) = result, PortraitPairing.isPairable(second.size, screen: screen) {
                        self?.compose([photo, partner], [first, second])
                    } else {
                        self?.compose([photo], [first])
                    }
                }
            case .failure(let error):
                // Once per photo: it comes round again every cycle.
                if self.reportedBroken.insert(photo).inserted {
                    self.logger.warning("slideshow: cannot show \(photo): \(error)")
                }
                self.skipBrokenPhoto(photo)
            }
        }
    }

    /// `photo` decoded to fit the slide, from the cache or the loader.
    private func decode(_ photo: RawPath, for slot: LoadSlot, then use: @escaping (Result<Bitmap, any Error>) -> Void) {
        let size = slideSize
        let key = ImageKey(path: photo, size: .screen(width: Int(size.width), height: Int(size.height)))
        logger.debug("slideshow: preparing \(key)")
        if let cached = app.cache.bitmap(for: key) { return use(.success(cached)) }
        loads[slot] = app.loader.request(key, distance: 0) { [weak self] _, result in
            self?.loads[slot] = nil
            use(result.mapError { $0 as any Error })
        }
    }

    /// Composes the slide of `photos` (one, or a pair) on the workshop's thread.
    private func compose(_ photos: [RawPath], _ bitmaps: [Bitmap]) {
        guard let photo = photos.first else { return }
        let started = now
        let size = slideSize, fill = settings.portraitFill, background = settings.background
        composing.insert(photo)
        workshop.compose({
            let (bitmap, content) = bitmaps.count > 1
                ? SlideComposer.composePair(bitmaps[0], bitmaps[1], size: size, fill: fill, background: background)
                : SlideComposer.compose(bitmaps[0], size: size, fill: fill, background: background)
            return ComposedSlide(bitmap: bitmap, photos: photos, content: content)
        }) { [weak self] slide in
            guard let self else { return }
            self.composing.remove(photo)
            self.slides[photo] = slide
            self.failuresInARow = 0
            self.logger.debug("slideshow: \(photos) composed in \(Int((self.now - started) * 1000)) ms")
            self.slideReady(photo)
        }
    }

    private func slideReady(_ photo: RawPath) {
        guard isSlideshowRunning, session.slideshow.sequencer.current == photo, slideshowView?.photo != photo else { return }
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

    private func stopSlideshow() {
        for (_, ticket) in loads { app.loader.cancel(ticket) }
        loads = [:]
        slides = [:]
        workshop.cancelAll()
        composing = []
        for view in hiddenBeneath { view.isHidden = false }
        hiddenBeneath = []
        slideshowView?.removeFromSuperview()
        slideshowView = nil
        app.overlayScreenChanged()
        logger.info("slideshow stopped")
        saveResume(force: true)
    }

    /// Once a slide covers the screen, the screens beneath are hidden so their updates (a
    /// thumbnail arriving) cost nothing; they come back unchanged when the slideshow stops.
    /// Views above it (the information overlay) stay.
    private func hideScreensBeneath() {
        guard let view = slideshowView else { return }
        for other in app.window.subviews.prefix(while: { $0 !== view }) where !other.isHidden {
            other.isHidden = true
            hiddenBeneath.append(other)
        }
    }

    /// The display changed size (another screen was connected): slides are composed again.
    func screenResized() {
        guard let view = slideshowView else { return }
        view.frame = app.window.bounds
        slides = [:]
        workshop.cancelAll()
        composing = []
        for (_, ticket) in loads { app.loader.cancel(ticket) }
        loads = [:]
        view.reset()
        showSlideshowFrame()
    }

    // MARK: Library

    /// The photo list changed (scan batch, folder watch).
    func libraryDidChange() {
        let firstPhoto = session.update(photos: app.photoPaths, now: now)
        restoreIfReady()
        if firstPhoto || (isSlideshowRunning && slideshowView?.photo == nil) { showSlideshowFrame() }
        schedule()
    }

    /// After a restart: reopen the saved screen once the scan has found what it needs.
    private func restoreIfReady() {
        guard let screen = pendingRestore, app.isScanFinished else { return }
        pendingRestore = nil
        switch screen {
        case .photo(let path):
            if let index = app.photoPaths.firstIndex(of: path) { app.openPhoto(at: index) }
        case .grid(let offset):
            app.grid.layoutIfNeeded()
            app.grid.setContentOffset(Point(x: 0, y: offset), animated: false)
        case .album:
            break   // albums restore through their own screen once it exists
        }
    }

    // MARK: Resume

    /// Saves where the kiosk is (also called by the CLI when it stops). Unchanged states are not
    /// written; the slideshow's moving position at most once a minute.
    public func saveResume(force: Bool = false) {
        guard let store else { return }
        session.navigate(to: app.currentScreen)
        let state = session.resumeState
        guard state != lastSaved else { return }
        if !force, let lastSaved, lastSaved.inSlideshow, state.inSlideshow, lastSaved.screen == state.screen,
           now - lastSaveTime < Self.slideshowSaveInterval { return }
        do {
            try store.save(state)
            lastSaved = state
            lastSaveTime = now
        } catch {
            // Once: a kiosk run by hand without write access to the state folder would say it
            // every minute otherwise.
            if saveFailed {
                logger.debug("cannot save the resume state to \(store.path): \(error)")
            } else {
                logger.warning("cannot save the resume state to \(store.path): \(error) (a restart will begin at the grid)")
            }
            saveFailed = true
        }
    }
}
