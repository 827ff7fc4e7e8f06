import Graphics

/// A rectangle of the screen that draws itself, lays out its subviews and receives touches.
///
/// Coordinates: `bounds` is the view's own coordinate system (its origin is the scroll offset:
/// a subview at frame.origin (0, 0) shows at −bounds.origin). `frame` is where the view sits in
/// its superview, including `transform`. All views are used by the one thread that owns the
/// window; nothing here is thread-safe.
open class View {
    public private(set) weak var superview: View?
    public private(set) var subviews: [View] = []

    /// Untransformed frame origin in the superview.
    public var position: Point {
        willSet { invalidateExtent() }
        didSet { invalidateExtent() }
    }

    public var bounds: Rect {
        willSet {
            // A scroll (origin only) may move the pixels already drawn instead of redrawing.
            isScrollingByCopy = copiesPixelsWhenScrolling && newValue.size == bounds.size && newValue.origin != bounds.origin
                && window?.copyScroll(of: self, from: bounds.origin, to: newValue.origin) == true
            if !isScrollingByCopy { invalidateExtent() }
        }
        didSet {
            if bounds != oldValue { setNeedsLayout() }
            if isScrollingByCopy {
                isScrollingByCopy = false
                for rect in foregroundRects { setNeedsDisplay(rect) }
            } else {
                invalidateExtent()
            }
        }
    }

    /// Scrolling (a change of `bounds.origin`) moves the pixels already drawn, when the window
    /// can do that exactly (see Window+ScrollCopy); the view must then be opaque (an opaque
    /// `backgroundColor`) and clip, everything it and its subviews draw must move with the
    /// content, and what `drawForeground` paints must be in `foregroundRects`.
    public var copiesPixelsWhenScrolling = false
    /// Set between `bounds`' willSet and didSet while a scroll is copied.
    private var isScrollingByCopy = false

    public var transform: ViewTransform = .identity {
        willSet { invalidateExtent() }
        didSet { invalidateExtent() }
    }

    public var isHidden = false {
        willSet { if newValue && !isHidden { invalidateExtent() } }
        didSet { if oldValue && !isHidden { invalidateExtent() } }
    }

    /// 0…1; below 0.01 the view neither draws nor receives touches (as in UIKit).
    public var alpha: Double = 1 {
        willSet { invalidateExtent() }
        didSet { invalidateExtent() }
    }

    public var backgroundColor: Color? {
        didSet { if backgroundColor != oldValue { setNeedsDisplay() } }
    }

    /// Subviews and drawing are clipped to the bounds.
    public var clipsToBounds = false {
        willSet { invalidateExtent() }
        didSet { invalidateExtent() }
    }

    /// False: the view and its subviews are skipped by hit testing.
    public var isUserInteractionEnabled = true

    /// While this view tracks a touch, no other view gets one, and it gets none while another
    /// view is touched.
    public var isExclusiveTouch = false

    /// A number to find the view by (`viewWithTag`); 0 means none.
    public var tag = 0

    public private(set) var gestureRecognizers: [GestureRecognizer] = []

    var needsLayout = true
    /// Some view below needs layout; lets a layout pass skip clean subtrees.
    var descendantNeedsLayout = false

    public init(frame: Rect = .zero) {
        position = frame.origin
        bounds = Rect(size: frame.size)
    }

    // MARK: Overridable behaviour

    /// Positions subviews; runs before drawing whenever `setNeedsLayout` was called, which
    /// happens on every bounds change (size or scroll offset).
    open func layoutSubviews() {}

    /// Draws the view's content below its subviews. `context.dirtyRect` is the area needed.
    open func draw(in context: DrawContext) {}

    /// Draws above the subviews (scroll indicators, focus rings).
    open func drawForeground(in context: DrawContext) {}

    /// Where `drawForeground` paints (bounds coordinates): a scroll copy beneath redraws there.
    open var foregroundRects: [Rect] { [] }

    /// The view paints every pixel of its bounds with opaque colour (an opaque background
    /// does), so its superview does not draw its own content where it is covered.
    open var isOpaque: Bool { backgroundColor.map { $0.alpha == 255 } ?? false }

    /// Whether `point` (bounds coordinates) is inside the view for touches.
    open func point(inside point: Point) -> Bool {
        bounds.contains(point)
    }

    /// The deepest visible, interactive view containing `point` (bounds coordinates).
    open func hitTest(_ point: Point) -> View? {
        guard !isHidden, isUserInteractionEnabled, alpha >= 0.01, self.point(inside: point) else { return nil }
        for subview in subviews.reversed() {
            if let hit = subview.hitTest(subview.convertFromSuperview(point)) { return hit }
        }
        return self
    }

    open func touchesBegan(_ touches: [Touch]) {}
    open func touchesMoved(_ touches: [Touch]) {}
    open func touchesEnded(_ touches: [Touch]) {}
    open func touchesCancelled(_ touches: [Touch]) {}

    /// Handles a key; return false to pass it to the superview.
    open func handleKey(_ key: KeyEvent) -> Bool { false }

    /// Called after the view joined or left a window (also for its subviews).
    open func didMoveToWindow() {}

    // MARK: Frame

    /// Where the view shows in its superview: position + translation, size scaled.
    public var frame: Rect {
        get {
            Rect(origin: position + transform.translation, size: bounds.size * transform.scale)
        }
        set {
            position = newValue.origin - transform.translation
            bounds.size = newValue.size * (1 / transform.scale)
        }
    }

    public var center: Point { frame.center }

    // MARK: Hierarchy

    /// The window this view is in, if any.
    public var window: Window? {
        var view: View = self
        while let parent = view.superview { view = parent }
        return view as? Window
    }

    public func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    public func insertSubview(_ view: View, at index: Int) {
        precondition(view !== self && !isDescendant(of: view), "a view cannot contain itself")
        let oldWindow = view.window
        if view.superview != nil { view.detach() }
        subviews.insert(view, at: min(max(0, index), subviews.count))
        view.superview = self
        view.setNeedsLayout()
        view.invalidateExtent()
        if view.window !== oldWindow { view.notifyWindowChange() }
    }

    public func removeFromSuperview() {
        guard superview != nil else { return }
        let oldWindow = window
        detach()
        if oldWindow != nil { notifyWindowChange() }
    }

    private func detach() {
        invalidateExtent()
        window?.viewWillLeave(self)
        superview?.subviews.removeAll { $0 === self }
        superview = nil
    }

    public func bringSubviewToFront(_ view: View) {
        guard let index = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.append(subviews.remove(at: index))
        view.invalidateExtent()
    }

    private func notifyWindowChange() {
        didMoveToWindow()
        for subview in subviews { subview.notifyWindowChange() }
    }

    public func isDescendant(of view: View) -> Bool {
        var current: View? = self
        while let v = current {
            if v === view { return true }
            current = v.superview
        }
        return false
    }

    /// This view or the first descendant (depth first) with `tag`.
    public func viewWithTag(_ tag: Int) -> View? {
        if self.tag == tag { return self }
        for subview in subviews {
            if let found = subview.viewWithTag(tag) { return found }
        }
        return nil
    }

    // MARK: Keys

    /// Makes this view the first to get keys in its window; false if it is not in one.
    @discardableResult
    public func becomeFirstResponder() -> Bool {
        guard let window else { return false }
        window.firstResponder = self
        return true
    }

    public var isFirstResponder: Bool { window?.firstResponder === self }

    // MARK: Gesture recognizers

    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        recognizer.view?.removeGestureRecognizer(recognizer)
        gestureRecognizers.append(recognizer)
        recognizer.view = self
    }

    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        guard recognizer.view === self else { return }
        gestureRecognizers.removeAll { $0 === recognizer }
        recognizer.view = nil
    }

    // MARK: Layout

    public func setNeedsLayout() {
        needsLayout = true
        var view = superview
        while let v = view, !v.descendantNeedsLayout {
            v.descendantNeedsLayout = true
            view = v.superview
        }
    }

    /// Lays out this view and then its subviews, where needed.
    public func layoutIfNeeded() {
        if needsLayout {
            needsLayout = false
            layoutSubviews()
        }
        guard descendantNeedsLayout else { return }
        descendantNeedsLayout = false
        for subview in subviews { subview.layoutIfNeeded() }
    }

    /// Whether this view or one below it waits for layout.
    var subtreeNeedsLayout: Bool { needsLayout || descendantNeedsLayout }

    // MARK: Display

    /// Marks the whole view for redrawing.
    public func setNeedsDisplay() {
        setNeedsDisplay(bounds)
    }

    /// Marks `rect` (bounds coordinates) for redrawing.
    public func setNeedsDisplay(_ rect: Rect) {
        guard let window, let visible = visibleRectInWindow(rect) else { return }
        window.addDamage(visible)
    }

    // MARK: Video (Window+VideoPlane)

    /// A video frame this view draws 1:1 into `rect` (bounds coordinates), for the window to
    /// put on the display's video plane instead when nothing covers it; nil for most views.
    open var videoContent: (frame: VideoFrame, rect: Rect)? { nil }

    /// Set by the window while this view's `videoContent` is on the display's video plane: a new
    /// frame then needs `setNeedsVideoFrame`, not a redraw. Taken off, the view redraws.
    public internal(set) var isVideoOnPlane = false {
        didSet { if oldValue && !isVideoOnPlane { setNeedsDisplay() } }
    }

    /// A new frame of `videoContent` while it is on the plane: the next frame shows it there.
    public func setNeedsVideoFrame() {
        window?.videoFrameChanged = true
    }
}
