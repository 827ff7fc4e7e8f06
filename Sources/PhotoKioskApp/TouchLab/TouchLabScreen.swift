import Graphics
import Logging
import Platform
import UI

/// A screen the touch lab runs on: the photo app or the touch-test canvas, with the overlay
/// and gesture probe attached. `record`, `replay` and `touch-test` build theirs through this.
public final class TouchLabScreen {
    public enum Content {
        /// The photo grid and viewer, as `run` shows them.
        case photos(config: KioskConfig, folders: [String], thumbnailCacheDirectory: String?)
        /// The touch-test canvas: targets to tap, no photo UI.
        case touchTest
    }

    public let host: ScreenHost
    public let lab: TouchLab
    public let app: KioskApp?
    public let touchTest: TouchTestView?
    /// The touchscreens' figures (`touch-test --report`), from every input event.
    public private(set) var panelReport = PanelReport()

    public init(content: Content, display: any Display, loop: EventLoop, logger: Logger, clock: (any UIClock)? = nil,
                showsOverlay: Bool, allowsToggle: Bool, rotation: Rotation = .none) {
        switch content {
        case let .photos(config, folders, cacheDirectory):
            let app = KioskApp(config: config, folders: folders, display: display, loop: loop,
                               thumbnailCacheDirectory: cacheDirectory, logger: logger, clock: clock)
            self.app = app
            host = app.host
            touchTest = nil
        case .touchTest:
            app = nil
            host = ScreenHost(display: display, loop: loop, logger: logger, clock: clock)
            let size = display.size
            let view = TouchTestView(frame: Rect(size: size), session: TouchTestSession(
                targets: TouchTestSession.gridTargets(size: size),
                geometry: RecordingGeometry(logicalSize: size, rotation: rotation)))
            host.window.addSubview(view)
            touchTest = view
        }
        lab = TouchLab(host: host, showsOverlay: showsOverlay, allowsToggle: allowsToggle)
    }

    public func start() throws {
        if let app { try app.start() } else { try host.attachDisplay() }
    }

    /// One platform event; a touchscreen's description reaches the touch test.
    public func handle(_ event: InputEvent) {
        panelReport.observe(event)
        if case .deviceAdded(let info) = event, info.isTouchscreen {
            touchTest?.setPanel(millimetres: info.sizeMillimetres, calibration: info.calibration, name: info.name)
        }
        if let app { app.handle(event) } else { host.handle(event) }
    }

    /// Everything asked for has arrived (the photo app's images and the slideshow's next
    /// slide), or what is missing waits for the clock (a fling defers loads); the touch test
    /// always is.
    public var isSettled: Bool {
        guard let app else { return true }
        if app.sessionDriver?.isPreparing == true { return false }
        return app.isContentLoaded || app.isContentWaitingForMotion
    }

    /// The kiosk's life on the photo screen as `run` has it (idle slideshow, schedule, blanking
    /// through `power`), nothing saved; nil on the touch test. `localTime` is the wall clock
    /// the schedule reads (see `localTime(following:)` for a virtual clock).
    @discardableResult
    public func startKioskSession(power: (any ScreenPowerControl)?, seed: UInt64,
                               localTime: @escaping () -> LocalDateTime) -> KioskSessionDriver? {
        app?.startKioskSession(resume: nil, power: power, seed: seed, localTime: localTime)
    }

    /// A local time that starts at `start` and moves with `clock`, so a fast replay's
    /// schedule sees the recording's minutes pass, not the replay's milliseconds.
    public static func localTime(following clock: ManualClock, from start: LocalDateTime) -> () -> LocalDateTime {
        let origin = clock.now
        return { start.adding(seconds: Int64((clock.now - origin).rounded(.down))) }
    }
}
