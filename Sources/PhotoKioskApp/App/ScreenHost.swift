import Graphics
import Logging
import Platform
import UI

/// Runs a view tree on a display: the event loop turn, input translation, drawing only what
/// changed, presenting at the display's pace, and arming the loop for the next animation step
/// (no deadline when idle, so an idle screen costs no wakeups).
///
/// The kiosk, the scroll demo and snapshots all run through one host.
public final class ScreenHost {
    public let window: Window
    public let display: any Display
    public let loop: EventLoop
    public private(set) var framesPresented = 0
    /// Keys the view tree did not handle (Escape to go back, and so on).
    public var onUnhandledKey: ((KeyEvent) -> Void)?
    /// Runs after the display's size changed (a different screen was connected).
    public var onResize: ((Size) -> Void)?
    /// Whether a quit key is honoured (not in kiosk mode).
    public var allowsQuit = true
    /// Sees every input frame before the view tree (the touch lab's overlay and gesture probe).
    public var touchObserver: (([TouchEvent]) -> Void)?
    /// Touch-to-present latency in seconds: from the newest touch event's timestamp to the
    /// present that first showed it. Called after that present.
    public var onTouchLatency: ((Double) -> Void)?
    /// A view kept in front of every other (the touch overlay), even of screens added later.
    public var overlayView: View?
    /// The newest touch timestamp not yet on screen.
    private var unpresentedTouchTime: Double?

    private let logger: Logger
    private var translator = InputTranslator()
    private var canvas: (bitmap: Bitmap, canvas: Canvas)?
    private var running = false
    /// False when a virtual clock drives the UI: its deadlines are not the loop's time, and
    /// arming the loop with them would wake it at once, over and over (the replayer moves that
    /// clock itself).
    private let armsLoopTimer: Bool
    /// Whether a virtual clock (a fast replay's) drives the UI rather than the loop's.
    public var isOnVirtualClock: Bool { !armsLoopTimer }

    /// `clock` drives the UI; nil uses the loop's monotonic clock. A replay passes a
    /// `ManualClock` so its timing is exact.
    /// The touchscreen's size in millimetres as libinput reports it (the last one added that
    /// reports one): the panel's size when the screen itself reports none.
    public private(set) var touchPanelMillimetres: Size?

    public init(display: any Display, loop: EventLoop, logger: Logger, clock: (any UIClock)? = nil) {
        self.display = display
        self.loop = loop
        self.logger = logger
        armsLoopTimer = clock == nil
        window = Window(size: display.size, clock: clock ?? EventLoopClock(loop: loop))
    }

    /// Starts receiving the display's events (page flips, hotplug, master changes).
    public func attachDisplay() throws {
        try display.attach(to: loop) { [weak self] event in self?.handle(event) }
    }

    private func handle(_ event: DisplayEvent) {
        switch event {
        case .frameDone:
            break
        case .needsFullRedraw:
            if display.size != window.bounds.size {
                window.frame = Rect(size: display.size)
                onResize?(display.size)
            }
            window.setNeedsDisplayAll()
        case .suspended(let reason):
            // The display already said why at notice level (disconnected, master lost).
            logger.debug("display paused: \(reason)")
        }
    }

    /// Feeds one platform input event to the view tree.
    public func handle(_ event: InputEvent) {
        loop.thread.assertCurrent("ScreenHost.handle")
        if case .deviceAdded(let info) = event, info.isTouchscreen, let size = info.sizeMillimetres {
            touchPanelMillimetres = size
        }
        switch translator.translate(event) {
        case .touches(let touches):
            touchObserver?(touches)
            unpresentedTouchTime = max(unpresentedTouchTime ?? -.infinity, touches.map(\.timestamp).max() ?? -.infinity)
            window.dispatch(touches)
        case .key(let key):
            if !window.dispatch(key: key) { onUnhandledKey?(key) }
        case .quit:
            if allowsQuit { stop() } else { logger.info("quit ignored: kiosk mode") }
        case .none:
            break
        }
    }

    /// Runs due timers, draws and presents what changed, and arms the next deadline.
    public func pump() {
        loop.thread.assertCurrent("ScreenHost.pump")
        window.advance(to: window.scheduler.now)
        if let overlay = overlayView, overlay.superview === window, window.subviews.last !== overlay {
            window.bringSubviewToFront(overlay)
        }
        if window.needsDisplay && display.isReadyForFrame {
            let target = display.frameBuffer
            if canvas?.bitmap !== target { canvas = (target, Canvas(target: target)) }
            let onPlane = placeVideo()
            let damage = window.render(into: canvas!.canvas)
            do {
                display.videoPlane?.show(onPlane)   // goes with this present
                try display.present(damage: damage)
                if !damage.isEmpty { framesPresented += 1 }
                if let touchTime = unpresentedTouchTime {
                    unpresentedTouchTime = nil
                    onTouchLatency?(window.scheduler.now - touchTime)
                }
            } catch {
                logger.error("present failed: \(error)")
            }
        } else if !window.needsDisplay {
            // The touch changed nothing on screen: there is no present to measure.
            unpresentedTouchTime = nil
        }
        if armsLoopTimer { loop.setDeadline(window.nextDeadline) }
    }

    /// Decides, before a frame is drawn, whether a playing clip's frame goes on the display's
    /// video plane (Window+VideoPlane): the view showing it then draws nothing new for it.
    private func placeVideo() -> VideoPlaneContent? {
        guard let plane = display.videoPlane, let placement = window.videoPlacement() else {
            window.setVideoOnPlane(nil)
            return nil
        }
        let content = VideoPlaneContent(frame: placement.frame, source: placement.source, destination: placement.destination)
        let accepted = plane.accepts(content)
        window.setVideoOnPlane(accepted ? placement.view : nil)
        return accepted ? content : nil
    }

    /// Runs until `stop()` (a quit key, SIGINT or SIGTERM), then gives the screen back.
    public func run() throws {
        running = true
        loop.signalHandler = { [weak self] signal in
            self?.logger.info("signal \(signal): stopping")
            self?.stop()
        }
        defer { display.close() }
        pump()
        while running {
            try loop.runOnce(timeout: nil)
            pump()
        }
    }

    public func stop() {
        running = false
        loop.stop()
    }

    /// Runs the loop until `isDone()` holds with nothing left to draw or animate, or `timeout`
    /// seconds pass; true when done. For the headless screen, snapshots and tests.
    @discardableResult
    public func run(until isDone: () -> Bool, timeout: Double) throws -> Bool {
        let end = loop.now + timeout
        pump()
        while !(isDone() && window.nextDeadline == nil && !window.needsDisplay) {
            let left = end - loop.now
            if left <= 0 { return false }
            let wait = window.nextDeadline.map { max(0, min($0 - loop.now, left)) } ?? min(left, 0.05)
            try loop.runOnce(timeout: wait)
            pump()
        }
        return true
    }
}
