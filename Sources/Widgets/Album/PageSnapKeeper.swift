import Graphics
import UI

/// Keeps a paging scroll view on whole pages where the plain scroll view would not:
///
/// - A touch that stops a page snap in flight and lifts without dragging would leave the view
///   between two pages (the scroll view only snaps on a drag's release): it finishes the snap.
/// - `PageSnap` counts a flick from the page the finger is on, so a flick that interrupts a snap
///   before it reached its page re-targets that same page and is lost (at four flicks a second
///   about every other one): a flick counts from the interrupted snap's page instead.
///
/// Either way the keeper runs its own spring from the current offset and velocity, as the scroll
/// view's page snap would.
final class PageSnapKeeper {
    private weak var pager: PagingScrollView?
    private let observer = TouchLiftObserver()
    /// The page the current snap is heading to (nil when at rest or dragging freely).
    private(set) var heading: Int?
    /// The snap a new drag interrupted, if any.
    private var interrupted: Int?
    private var dragStartOffset = 0.0
    private var animation: Animation?

    var isAnimating: Bool { animation != nil }

    func attach(to pager: PagingScrollView) {
        self.pager = pager
        observer.onLift = { [weak self] in self?.touchesLifted() }
        pager.scrollView.addGestureRecognizer(observer)
    }

    func cancel() {
        animation?.cancel()
        animation = nil
        heading = nil
    }

    func dragBegan() {
        interrupted = heading
        animation?.cancel()
        animation = nil
        heading = nil
        dragStartOffset = pager?.scrollView.contentOffset.x ?? 0
    }

    /// Works out where the scroll view's snap goes, and redirects it when a flick interrupted a snap.
    func dragEnded(willDecelerate: Bool) {
        guard let pager, pager.pageCount > 0 else { return }
        let scroll = pager.scrollView, stride = pager.pageStride
        let velocity = -scroll.panGestureRecognizer.velocity(in: scroll).x
        let offset = scroll.contentOffset.x
        // What the scroll view's own release chose (the same rule, from where the drag began).
        var target = PageSnap.targetPage(offset: offset, pageSize: stride, velocity: velocity,
                                         startPage: Int((dragStartOffset / stride).rounded()), pageCount: pager.pageCount)
        if let interrupted, abs(velocity) > PageSnap.flickVelocity {
            let onward = min(max(interrupted + (velocity > 0 ? 1 : -1), 0), pager.pageCount - 1)
            if onward != target {
                target = onward
                heading = target
                springTo(target, velocity: velocity)
                self.interrupted = nil
                return
            }
        }
        self.interrupted = nil
        heading = willDecelerate ? target : nil
    }

    func snapEnded() {
        heading = nil
    }

    /// A touch that stopped a snap lifted without a drag: finish the snap.
    private func touchesLifted() {
        guard let pager, !pager.scrollView.isDragging, !pager.scrollView.isMoving, animation == nil else { return }
        let stride = pager.pageStride
        let offset = pager.scrollView.contentOffset.x
        guard stride > 0, abs(offset / stride - (offset / stride).rounded()) > 1e-6 else {
            heading = nil
            return
        }
        let target = heading ?? PagingScrollView.centerPage(offset: offset, pageStride: stride, pageCount: pager.pageCount)
        springTo(target, velocity: 0)
    }

    private func springTo(_ page: Int, velocity: Double) {
        guard let pager, let animator = pager.window?.animator else { return }
        let scroll = pager.scrollView
        scroll.stopMotion()
        heading = page
        let destination = Double(page) * pager.pageStride
        animation = animator.animate(spring: .bounce, from: scroll.contentOffset.x, to: destination, velocity: velocity,
                                     update: { [weak scroll] x in scroll?.contentOffset = Point(x: x, y: 0) },
                                     completion: { [weak self] finished in
            guard let self, finished else { return }
            self.animation = nil
            self.heading = nil
            self.pager?.onScrollEnd?()
        })
    }
}

/// Watches touches on a view without ever recognizing: tells when the last finger lifted.
final class TouchLiftObserver: GestureRecognizer {
    var onLift: (() -> Void)?

    override init() {
        super.init()
        cancelsTouchesInView = false
        recognizesSimultaneously = { _, _ in true }
    }

    override func touchesEnded(_ touches: [Touch]) {
        lifted(touches)
    }

    override func touchesCancelled(_ touches: [Touch]) {
        lifted(touches)
    }

    private func lifted(_ touches: [Touch]) {
        let remaining = self.touches.filter { t in !touches.contains { $0 === t } }
        guard remaining.isEmpty else { return }
        if state == .possible { setState(.failed) }
        onLift?()
    }
}
