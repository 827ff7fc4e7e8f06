import Graphics

/// A view that scrolls and zooms its content with UIScrollView's feel: 1:1 dragging, rubber
/// band past the edges, momentum with exponential deceleration, a critically damped spring back,
/// paging with velocity-aware snapping, pinch and animated zooming.
///
/// `contentOffset` is `bounds.origin`: subviews are laid out in content coordinates and the
/// scroll view shows the part at the offset. All motion runs on the window's frame clock.
open class ScrollView: View {
    public weak var delegate: ScrollViewDelegate?

    public var contentSize: Size = .zero {
        didSet { if contentSize != oldValue { setNeedsLayout(); setNeedsDisplay() } }
    }
    public var contentInset: EdgeInsets = .zero {
        didSet { setNeedsLayout() }
    }
    public var contentOffset: Point {
        get { bounds.origin }
        set {
            guard newValue != bounds.origin else { return }
            bounds.origin = newValue
            if indicatorAlpha > 0 || isTracking { showIndicators() }
            delegate?.scrollViewDidScroll(self)
        }
    }

    public var isScrollEnabled = true
    public var bounces = true
    public var alwaysBounceVertical = false
    public var alwaysBounceHorizontal = false
    /// Snap to multiples of the bounds size.
    public var isPagingEnabled = false
    /// Velocity kept per millisecond: `DecelerationCurve.normalRate` or `.fastRate`.
    public var decelerationRate = DecelerationCurve.normalRate
    public var showsHorizontalScrollIndicator = true
    public var showsVerticalScrollIndicator = true

    /// Hold a touch on the content back until it is clearly not a scroll (moved less than the
    /// pan threshold within `ScrollTouchRecognizer.contentTouchDelay`).
    public var delaysContentTouches = true
    /// Once scrolling starts, cancel the content's touches. When false, content that already
    /// got a touch keeps it and the scroll view does not scroll for that touch.
    public var canCancelContentTouches = true

    // Zooming
    public var minimumZoomScale = 1.0
    public var maximumZoomScale = 1.0
    public var bouncesZoom = true
    /// The content view that zooms (UIKit's viewForZooming(in:)); must be a subview and keep
    /// its bounds origin at zero. The scroll view sets its transform scale and position.
    public var viewForZooming: View? {
        didSet { if let zoomView = viewForZooming { applyZoomScale(zoomView.transform.scale) } }
    }
    /// Centres the zoom view when it is smaller than the bounds (photo viewers want this).
    public var centersContentWhenSmaller = true
    /// Replaces what `setZoomScale(_:animated:)` does (a tiled view snaps its resolution there);
    /// call `performSetZoomScale(_:animated:)` for the default.
    public var setZoomScaleHandler: ((ScrollView, Double, Bool) -> Void)?

    public internal(set) var isDragging = false
    public internal(set) var isDecelerating = false
    public internal(set) var isZooming = false
    public internal(set) var isZoomBouncing = false
    /// A finger is on the scroll view (its pan or pinch is tracking).
    public var isTracking: Bool { panGestureRecognizer.numberOfTouches > 0 || pinchGestureRecognizer.numberOfTouches > 0 }

    public let panGestureRecognizer = PanGestureRecognizer()
    public let pinchGestureRecognizer = PinchGestureRecognizer()
    let touchRecognizer = ScrollTouchRecognizer()

    // Motion state
    var motion: (x: AxisMotion, y: AxisMotion)?
    var motionTask: Int?
    var offsetAnimation: Animation?
    var zoomAnimation: Animation?
    var dragStartOffset = Point.zero
    /// Where the running page snap goes (nil when no page snap runs).
    var pageSnapTarget: Point?
    /// The page snap the current touch stopped on its way: the touch's drag or lift counts from it.
    var caughtPageSnapTarget: Point?
    var zoomedDuringDrag = false
    var needsPanRebase = false
    var pinchAnchor = Point.zero
    var zoomStartScale = 1.0
    var pinchStartScale = 1.0
    var indicatorAlpha = 0.0
    var indicatorFade: Animation?

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        clipsToBounds = true
        // Copies only when opaque too (a background colour); see View.copiesPixelsWhenScrolling.
        copiesPixelsWhenScrolling = true
        touchRecognizer.scrollView = self
        addGestureRecognizer(touchRecognizer)
        addGestureRecognizer(panGestureRecognizer)
        addGestureRecognizer(pinchGestureRecognizer)
        let own: (GestureRecognizer, GestureRecognizer) -> Bool = { [weak self] _, other in
            guard let self else { return false }
            return other === self.panGestureRecognizer || other === self.pinchGestureRecognizer || other === self.touchRecognizer
        }
        touchRecognizer.recognizesSimultaneously = own
        panGestureRecognizer.recognizesSimultaneously = own
        pinchGestureRecognizer.recognizesSimultaneously = own
        panGestureRecognizer.shouldBegin = { [weak self] _ in self?.panShouldBegin() ?? false }
        pinchGestureRecognizer.shouldBegin = { [weak self] _ in
            guard let self else { return false }
            return self.viewForZooming != nil && self.maximumZoomScale > self.minimumZoomScale
        }
        panGestureRecognizer.addAction { [weak self] _ in self?.handlePan() }
        pinchGestureRecognizer.addAction { [weak self] _ in self?.handlePinch() }
    }

    /// Keeps the zoom view centred; subclasses that lay out tiles call super.
    open override func layoutSubviews() {
        centerZoomView()
    }

    open override func drawForeground(in context: DrawContext) {
        drawIndicators(in: context)
    }

    open override var foregroundRects: [Rect] { visibleIndicatorRects }

    /// Zooms keeping the centre of the view in place (clamped to the limits). Goes through
    /// `setZoomScaleHandler` when set.
    open func setZoomScale(_ scale: Double, animated: Bool) {
        if let handler = setZoomScaleHandler { handler(self, scale, animated) }
        else { performSetZoomScale(scale, animated: animated) }
    }


    // MARK: Offsets

    public var minimumContentOffset: Point {
        Point(x: -contentInset.left, y: -contentInset.top)
    }

    public var maximumContentOffset: Point {
        maximumContentOffset(for: contentSize)
    }

    func maximumContentOffset(for size: Size) -> Point {
        let lo = minimumContentOffset
        return Point(x: max(lo.x, size.width + contentInset.right - bounds.width),
                     y: max(lo.y, size.height + contentInset.bottom - bounds.height))
    }

    /// `offset` moved inside the allowed range.
    public func clampedOffset(_ offset: Point) -> Point {
        clampedOffset(offset, contentSize: contentSize)
    }

    func clampedOffset(_ offset: Point, contentSize size: Size) -> Point {
        let lo = minimumContentOffset, hi = maximumContentOffset(for: size)
        return Point(x: min(max(offset.x, lo.x), hi.x), y: min(max(offset.y, lo.y), hi.y))
    }

    var canScrollHorizontally: Bool { maximumContentOffset.x > minimumContentOffset.x }
    var canScrollVertically: Bool { maximumContentOffset.y > minimumContentOffset.y }
    var bouncesHorizontally: Bool { bounces && (canScrollHorizontally || alwaysBounceHorizontal) }
    var bouncesVertically: Bool { bounces && (canScrollVertically || alwaysBounceVertical) }

    /// Scrolls to `offset`, or animates there (0.3 s ease in-out, then
    /// `scrollViewDidEndScrollingAnimation`).
    public func setContentOffset(_ offset: Point, animated: Bool) {
        stopMotion()
        caughtPageSnapTarget = nil
        guard animated, let animator = window?.animator, offset != contentOffset else {
            contentOffset = offset
            return
        }
        let start = contentOffset
        showIndicators()
        offsetAnimation = animator.animate(duration: 0.3, easing: .easeInOut, update: { [weak self] p in
            guard let self else { return }
            self.contentOffset = p < 1 ? self.pixelAligned(start + (offset - start) * p) : offset
        }, completion: { [weak self] finished in
            guard let self, finished else { return }
            self.offsetAnimation = nil
            self.fadeIndicators()
            self.delegate?.scrollViewDidEndScrollingAnimation(self)
        })
    }

    /// `offset` moved to whole device pixels when this view scrolls by copying pixels (opaque,
    /// see `copiesPixelsWhenScrolling`), so every frame of a drag, fling or scroll animation moves
    /// the content by whole pixels and is copied, not redrawn (UIKit likewise shows scroll
    /// offsets on pixel boundaries). The motion itself keeps its exact positions; only what is
    /// shown is rounded, by at most half a pixel.
    func pixelAligned(_ offset: Point) -> Point {
        guard copiesPixelsWhenScrolling, let background = backgroundColor, background.alpha == 255 else { return offset }
        let s = scaleInWindow
        return Point(x: (offset.x * s).rounded() / s, y: (offset.y * s).rounded() / s)
    }

    /// Scrolls just enough to show `rect` (content coordinates); nothing if it is visible.
    public func scrollRectToVisible(_ rect: Rect, animated: Bool) {
        var offset = contentOffset
        if rect.maxX > bounds.maxX { offset.x += rect.maxX - bounds.maxX }
        if rect.minX < offset.x { offset.x = rect.minX }
        if rect.maxY > bounds.maxY { offset.y += rect.maxY - bounds.maxY }
        if rect.minY < offset.y { offset.y = rect.minY }
        offset = clampedOffset(offset)
        if offset != contentOffset { setContentOffset(offset, animated: animated) }
    }

    /// True while anything moves the content (fling, bounce, animation).
    public var isMoving: Bool { motion != nil || offsetAnimation != nil || zoomAnimation != nil }

    /// Stops any fling, bounce or animation where it is.
    public func stopMotion() {
        if let motionTask { window?.scheduler.removeFrameTask(motionTask) }
        motionTask = nil
        motion = nil
        pageSnapTarget = nil
        isDecelerating = false
        offsetAnimation?.cancel()
        offsetAnimation = nil
        zoomAnimation?.cancel()
        zoomAnimation = nil
        isZoomBouncing = false
    }
}
