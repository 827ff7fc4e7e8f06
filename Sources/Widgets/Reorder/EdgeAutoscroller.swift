import Graphics
import UI

/// Scrolls a scroll view while a dragged item is held near one of its edges (ScrollViewSuite's
/// Autoscroll sample): a repeating 1/60 s timer on the window's clock, created when the finger
/// enters an edge zone and invalidated at once when it leaves the zone or lifts. Each tick moves
/// the content by `AutoscrollRule`'s distance, clamped to the content, then reports the distance
/// so the drag can keep the item under the finger and re-run the reorder logic.
public final class EdgeAutoscroller {
    public enum Axis: Sendable { case horizontal, vertical }

    public let axis: Axis
    public var rule: AutoscrollRule
    /// Called after every tick with the distance the content actually moved (0 at the ends).
    public var onScroll: ((Double) -> Void)?

    private weak var scrollView: ScrollView?
    private var timer: ScheduledTimer?
    /// The finger in window coordinates: a scroll moves the content, not the finger.
    private var finger: Point?

    public init(scrollView: ScrollView, axis: Axis, rule: AutoscrollRule = AutoscrollRule()) {
        self.scrollView = scrollView
        self.axis = axis
        self.rule = rule
    }

    /// True while the timer exists (the finger is in an edge zone).
    public var isRunning: Bool { timer?.isValid ?? false }

    /// The finger moved (window coordinates). `enabled` false (the item left the scroll view)
    /// stops scrolling as leaving the zone does.
    public func update(finger point: Point, enabled: Bool = true) {
        finger = point
        if enabled && distance() != 0 {
            guard !isRunning, let scheduler = scrollView?.window?.scheduler else { return }
            timer = scheduler.schedule(after: AutoscrollRule.tickInterval, repeating: AutoscrollRule.tickInterval) { [weak self] in
                self?.tick()
            }
        } else {
            stop()
        }
    }

    /// The finger lifted or the drag ended.
    public func stop() {
        timer?.invalidate()
        timer = nil
    }

    /// The unclamped per-tick distance for the current finger (0 outside the zones).
    public func distance() -> Double {
        guard let scrollView, let finger else { return 0 }
        let p = scrollView.convert(finger, from: nil)
        let b = scrollView.bounds
        switch axis {
        case .vertical: return rule.distance(position: p.y, visibleMin: b.minY, visibleMax: b.maxY)
        case .horizontal: return rule.distance(position: p.x, visibleMin: b.minX, visibleMax: b.maxX)
        }
    }

    /// One timer tick: scroll by the rule's distance, never past the content.
    func tick() {
        guard let scrollView else { stop(); return }
        let d = distance()
        guard d != 0 else { stop(); return }
        let lo = scrollView.minimumContentOffset, hi = scrollView.maximumContentOffset
        var offset = scrollView.contentOffset
        let moved: Double
        switch axis {
        case .vertical:
            moved = AutoscrollRule.clamp(d, offset: offset.y - lo.y, contentLength: hi.y - lo.y + scrollView.bounds.height,
                                         viewportLength: scrollView.bounds.height)
            offset.y += moved
        case .horizontal:
            moved = AutoscrollRule.clamp(d, offset: offset.x - lo.x, contentLength: hi.x - lo.x + scrollView.bounds.width,
                                         viewportLength: scrollView.bounds.width)
            offset.x += moved
        }
        if moved != 0 { scrollView.contentOffset = offset }
        onScroll?(moved)
    }
}
