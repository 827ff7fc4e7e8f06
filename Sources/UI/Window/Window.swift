import Graphics

/// The root of a view tree: owns the frame clock (`scheduler`), routes touches and keys, and
/// renders only what changed.
///
/// The app's event loop drives it: `dispatch(_:)` each input frame, `advance(to:)` when
/// `nextDeadline` passes, and `render(into:)` when `needsDisplay` and the display is ready;
/// the returned damage is what the display copies to the screen:
///
///     let window = Window(size: display.size, clock: monotonicClock)
///     window.addSubview(ScrollDemoView(frame: window.bounds))
///     let canvas = Canvas(target: display.frameBuffer)
///     loop {
///         window.dispatch(touchEventsOfThisInputFrame)      // [TouchEvent], window coordinates
///         window.advance(to: clock.now)                      // timers and animation frames
///         if window.needsDisplay && display.isReadyForFrame {
///             try display.present(damage: window.render(into: canvas))
///         }
///         armTimerfd(window.nextDeadline)                    // nil: sleep until input
///     }
public final class Window: View {
    public let scheduler: Scheduler
    public var animator: Animator { Animator(scheduler: scheduler) }
    /// Keys go here first, then up its superviews; nil sends them to the window.
    public weak var firstResponder: View?

    var damage: Region
    /// A scroll view's move the next render makes by copying pixels (Window+ScrollCopy).
    var scrollCopy: ScrollCopy?
    /// The bitmap the last frame was rendered into: only there can pixels be copied.
    weak var lastRenderTarget: Bitmap?
    /// A view's video frame on the display's plane changed (Window+VideoPlane).
    var videoFrameChanged = false
    /// The view whose video is on the display's plane now.
    weak var videoOnPlaneView: View?
    /// Renders that moved pixels instead of redrawing a scrolled view (for tests and benchmarks).
    public internal(set) var copiedFrameCount = 0
    private(set) lazy var router = TouchRouter(window: self)

    public init(size: Size, clock: any UIClock) {
        scheduler = Scheduler(clock: clock)
        damage = .full(Self.pixelBounds(size))
        super.init(frame: Rect(size: size))
        backgroundColor = .black
        clipsToBounds = true
    }

    /// A new size (the display was rotated or changed mode) redraws everything.
    public override var bounds: Rect {
        didSet {
            guard bounds.size != oldValue.size else { return }
            damage = .full(Self.pixelBounds(bounds.size))
            scrollCopy = nil
        }
    }

    private static func pixelBounds(_ size: Size) -> PixelRect {
        PixelRect(x: 0, y: 0, width: Int(size.width.rounded(.up)), height: Int(size.height.rounded(.up)))
    }

    // MARK: Time

    /// When the window next has timer or animation work; nil when idle (sleep until input).
    public var nextDeadline: Double? { scheduler.nextDeadline }

    /// Runs the timers and animation steps due by `now`.
    public func advance(to now: Double) {
        scheduler.advance(to: now)
    }

    // MARK: Input

    /// Delivers one input frame (all slots that changed together).
    public func dispatch(_ events: [TouchEvent]) {
        router.dispatch(events)
    }

    /// Sends a key to the first responder, then up its superviews; true if someone handled it.
    @discardableResult
    public func dispatch(key: KeyEvent) -> Bool {
        var view: View? = firstResponder.flatMap { $0.window === self ? $0 : nil } ?? self
        while let v = view {
            if v.handleKey(key) { return true }
            view = v.superview
        }
        return false
    }

    /// Touches currently down (after exclusive-touch filtering), oldest first.
    public var activeTouches: [Touch] { router.activeTouches }

    func viewWillLeave(_ view: View) {
        if let responder = firstResponder, responder.isDescendant(of: view) { firstResponder = nil }
    }

    // MARK: Damage

    /// Areas waiting to be redrawn, in window pixels.
    public var pendingDamage: [PixelRect] { damage.rects }

    /// True when a render would draw something (damage or pending layout).
    public var needsDisplay: Bool { !damage.isEmpty || scrollCopy != nil || subtreeNeedsLayout || videoFrameChanged }

    func addDamage(_ rect: Rect) {
        damage.add(PixelRect(covering: rect))
    }

    /// Marks the whole window for redrawing (after the display lost its contents).
    public func setNeedsDisplayAll() {
        damage.add(damage.bounds)
    }
}
