import Graphics
import Imaging
import Logging
import Platform
import UI
import Widgets

/// The information overlay (`[overlay]` in the config): the clock, and the date taken, caption
/// and place of the photo on screen, in the corners the config chose. Over the album it shows
/// with each page and fades with the album's chrome; over the slideshow it stays. Its view sits
/// above every screen (the app brings it to the front when one opens).
///
/// A photo's details are read on a thread of their own (a file read and a place lookup) and come
/// back through the loop's mailbox. The clock is redrawn once a minute, only while it shows and
/// the screen is on; the wall clock is the app's injected `wallClock`.
final class InfoOverlay {
    enum Mode: Equatable { case hidden, album, slideshow }

    let view: InfoOverlayView
    private let settings: KioskConfig.Overlay
    private unowned let app: KioskApp
    /// The app's loop, held here so the clock timer can be cancelled while the app goes away.
    private let loop: EventLoop
    private let places: PlaceLookup?
    private let logger: Logger
    private(set) var mode: Mode = .hidden
    private(set) var photo: RawPath?
    /// Details of recently shown photos (the album pages back and forth).
    private var known: [RawPath: OverlayPhotoInfo] = [:]
    private var knownOrder: [RawPath] = []
    static let knownLimit = 64
    private var reading: [RawPath: WorkerThread] = [:]
    private var clockTimer: EventLoop.TimerID?
    private var virtualClockTimer: ScheduledTimer?
    private var fadeTimer: ScheduledTimer?
    private var fade: Animation?
    private var screenOn = true

    /// Seconds of the album's fade (the page indicator's).
    static let fadeDuration = 0.4

    init(settings: KioskConfig.Overlay, app: KioskApp, placeTable: String?, logger: Logger) {
        self.settings = settings
        self.app = app
        loop = app.host.loop
        self.logger = logger
        places = settings.place == .off ? nil : PlaceLookup(path: placeTable, logger: logger)
        view = InfoOverlayView(frame: app.window.bounds)
        view.isHidden = true
        resize(to: app.window.bounds.size)
        app.window.addSubview(view)
    }

    deinit {
        for thread in reading.values { thread.join() }
        cancelClock()
    }

    /// True when nothing is being read for the photo on screen (snapshots wait for it).
    var isSettled: Bool { photo.map { reading[$0] == nil } ?? true }

    // MARK: What shows

    /// Shows the overlay over `mode`'s screen for `photo`, in front of every other view.
    func show(_ mode: Mode, photo: RawPath?) {
        guard mode != .hidden else { return hide() }
        let modeChanged = self.mode != mode
        self.mode = mode
        self.photo = photo
        view.isHidden = false
        app.window.bringSubviewToFront(view)
        if let photo, known[photo] == nil { read(photo) }
        refresh()
        // Each album page shows it afresh; the slideshow stops the album's fade where it was.
        if mode == .album || modeChanged { appear() }
        armClock()
    }

    func hide() {
        mode = .hidden
        photo = nil
        view.isHidden = true
        stopFade()
        cancelClock()
    }

    func resize(to size: Size) {
        view.frame = Rect(size: size)
        // Text in proportion to the screen: 27 px lines on a 1080-line screen, 14 at least.
        let base = max(14, Int((min(size.width, size.height) / 40).rounded()))
        view.font = try? Font.standard(pixelSize: base)
        view.largeFont = try? Font.standard(pixelSize: base * 2)
        view.margin = Double(base)
    }

    /// The screen went dark or lit up: the clock stops or catches up.
    func screenPowerChanged(on: Bool) {
        screenOn = on
        if on { refresh() }
        armClock()
    }

    /// The wall clock was set: the clock shows the new time and its minute timer follows it.
    func wallClockWasSet() {
        guard settings.clock != .off else { return }
        if screenOn { refresh() }
        armClock()
    }

    private func refresh() {
        let info = photo.flatMap { known[$0] }
        var lines: [InfoOverlayView.Corner: [InfoOverlayView.Line]] = [:]
        func add(_ position: KioskConfig.OverlayPosition, _ newLines: [InfoOverlayView.Line]) {
            guard let corner = position.corner else { return }
            lines[corner, default: []] += newLines
        }
        if settings.clock != .off {
            let now = app.wallClock().calendarFields
            let format = app.localeTimeFormat
            add(settings.clock, [.init(format.time(now), isLarge: true), .init(format.day(now))])
        }
        if let date = info?.dateTaken { add(settings.dateTaken, [.init(date)]) }
        if let caption = info?.caption { add(settings.caption, [.init(caption)]) }
        if let place = info?.place { add(settings.place, [.init(place)]) }
        for corner in InfoOverlayView.Corner.allCases { view.setLines(lines[corner] ?? [], in: corner) }
    }

    // MARK: Album fade

    /// Fully visible now; over the album, fading after the chrome's time.
    private func appear() {
        stopFade()
        view.opacity = 1
        guard mode == .album else { return }
        fadeTimer = app.window.scheduler.schedule(after: PhotoAlbumView.chromeVisibleDuration) { [weak self] in
            guard let self else { return }
            self.fade = self.app.window.animator.animate(duration: Self.fadeDuration, easing: .easeIn, update: { [weak self] p in
                self?.view.opacity = 1 - p
            }, completion: { [weak self] finished in
                if finished { self?.cancelClock() }   // nothing to keep current while invisible
            })
        }
    }

    private func stopFade() {
        fadeTimer?.invalidate()
        fadeTimer = nil
        fade?.cancel()
        fade = nil
    }

    // MARK: Photo details

    private func read(_ path: RawPath) {
        guard reading[path] == nil else { return }
        let places = self.places, format = app.localeTimeFormat
        let mailbox = loop.mailbox
        let owner = WeakLoopBound(self, on: mailbox.thread)
        reading[path] = WorkerThread(name: "pk-overlay") {
            let info = OverlayPhotoInfo.read(path, places: places, format: format)
            mailbox.post { owner.value?.finishRead(path, info) }
        }
    }

    private func finishRead(_ path: RawPath, _ info: OverlayPhotoInfo) {
        reading.removeValue(forKey: path)?.join()   // it has posted: only its return is left
        if known.updateValue(info, forKey: path) == nil { knownOrder.append(path) }
        if knownOrder.count > Self.knownLimit { known.removeValue(forKey: knownOrder.removeFirst()) }
        if path == photo { refresh() }
    }

    // MARK: Clock

    /// A timer at the next minute, while the clock is on, visible and the screen lit. An
    /// event-loop timer (an idle kiosk counts as settled meanwhile), or a UI timer on a virtual
    /// clock (a replay), as the slideshow's.
    private func armClock() {
        cancelClock()
        guard settings.clock != .off, mode != .hidden, screenOn, view.opacity > 0 else { return }
        let delay = Double(60 - app.wallClock().second) + 0.05
        let fire = { [weak self] in
            self?.clockTimer = nil
            self?.virtualClockTimer = nil
            self?.refresh()
            self?.armClock()
        }
        if app.host.isOnVirtualClock {
            virtualClockTimer = app.window.scheduler.schedule(after: delay, fire)
        } else {
            clockTimer = loop.addTimer(after: delay, fire)
        }
    }

    private func cancelClock() {
        if let clockTimer { loop.cancelTimer(clockTimer) }
        clockTimer = nil
        virtualClockTimer?.invalidate()
        virtualClockTimer = nil
    }

    /// A clock redraw is due (tests).
    var isClockArmed: Bool { clockTimer != nil || virtualClockTimer != nil }
    /// The album's fade is waiting or running (tests).
    var isFading: Bool { fadeTimer != nil || fade != nil }
}

extension KioskConfig.OverlayPosition {
    var corner: InfoOverlayView.Corner? {
        switch self {
        case .off: nil
        case .topLeft: .topLeft
        case .topRight: .topRight
        case .bottomLeft: .bottomLeft
        case .bottomRight: .bottomRight
        }
    }
}
