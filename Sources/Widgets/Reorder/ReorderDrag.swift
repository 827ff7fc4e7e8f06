import Graphics
import UI

/// What a reorderable scroll view (the grid, the strip) provides to a drag. Slots are display
/// positions; `ReorderPlan` maps items to slots while the drag goes on.
protocol ReorderHost: ScrollView {
    /// The frame of slot `index`, content coordinates.
    func reorderSlotFrame(_ index: Int) -> Rect
    /// The slot under `point` (content coordinates), clamped to the items: the drop index.
    func reorderSlot(at point: Point) -> Int
    /// The drop index changed: move the other items to their slots in `plan` (animated).
    func reorderPlanDidChange(_ plan: ReorderPlan)
    /// The finger lifted: commit `plan` (the item now flies home to slot `plan.to`).
    func reorderDidDrop(_ plan: ReorderPlan)
    /// The item arrived in slot `index`; take it back.
    func reorderDidLand(_ item: View, at index: Int)
}

/// One drag of one thumbnail (ScrollViewSuite's Autoscroll sample, ios-behaviour A.3–A.5):
/// the item is lifted out of its scroll view into `container` (above the scroll view, so it
/// is not clipped by it and draws above its neighbours), grows a little with a shadow, and
/// follows the finger with the grabbed point under it. Near an edge the scroll view autoscrolls;
/// after every finger move and every autoscroll tick the drop index is recomputed from the
/// finger's position in the content. On lift the move is committed and the item flies home in
/// 0.1 + 0.001·distance seconds.
///
/// Lifting into a container above the scroll view was chosen over turning clipsToBounds off:
/// a scroll view that does not clip would draw all of its off-screen content outside its
/// bounds (a strip below other views), and its damage would cover its whole content.
public final class ReorderDrag {
    /// How long the other thumbnails take to slide to their new places (UIKit's default
    /// animation duration, used by the seed's beginAnimations/commitAnimations block).
    public static let rearrangeDuration = 0.2
    /// The pickup: the thumbnail grows and its shadow fades in.
    public static let liftDuration = 0.12

    /// The seed's goHome duration for a flight of `distance` points.
    public static func homeDuration(distance: Double) -> Double { 0.1 + 0.001 * distance }

    public let lifted: LiftedItemView
    public let autoscroller: EdgeAutoscroller
    public private(set) var plan: ReorderPlan
    /// The finger, window coordinates.
    public private(set) var finger: Point
    /// The point of the item (unscaled item coordinates) the finger holds.
    public let grab: Point
    /// True after the finger lifted, while the item flies home.
    public private(set) var isLanding = false
    public private(set) var isFinished = false
    public private(set) var isCancelled = false

    private weak var host: (any ReorderHost)?
    private weak var container: View?
    private let density: Double
    private var scaleAnimation: Animation?
    private var homeAnimation: Animation?

    /// Lifts `item` (now a subview of `host` at `frame`, content coordinates) out of the host.
    init(host: some ReorderHost, item: View, index: Int, finger: Point, container: View,
         axis: EdgeAutoscroller.Axis, density: Double) {
        self.host = host
        self.container = container
        self.density = density
        self.finger = finger
        plan = ReorderPlan(from: index, to: index)
        let origin = container.convert(item.frame.origin, from: host)
        grab = container.convert(finger, from: nil) - origin
        lifted = LiftedItemView(item: item)
        lifted.shadowStrength = 0
        container.addSubview(lifted)
        lifted.place(itemOrigin: origin, scale: 1)
        autoscroller = EdgeAutoscroller(scrollView: host, axis: axis, rule: AutoscrollRule(density: density))
        autoscroller.onScroll = { [weak self] _ in self?.updatePlan() }
        if let animator = container.window?.animator {
            scaleAnimation = animator.animate(duration: Self.liftDuration, easing: .easeOut, update: { [weak self] p in
                guard let self else { return }
                self.lifted.shadowStrength = p
                self.follow(scale: 1 + (LiftedItemView.liftScale - 1) * p)
            })
        } else {
            lifted.shadowStrength = 1
            follow(scale: LiftedItemView.liftScale)
        }
    }

    /// The finger moved (window coordinates).
    public func move(to point: Point) {
        guard !isLanding else { return }
        finger = point
        follow(scale: lifted.scale)
        autoscroller.update(finger: finger, enabled: liftedOverHost)
        updatePlan()
    }

    /// The finger lifted (or its touch was cancelled): the item lands where it is shown.
    public func drop() {
        guard !isLanding else { return }
        autoscroller.stop()
        updatePlan()
        scaleAnimation?.cancel()
        isLanding = true
        host?.reorderDidDrop(plan)
        let start = lifted.itemFrame.origin, startScale = lifted.scale, startShadow = lifted.shadowStrength
        let distance = start.distance(to: homeOrigin()) / density
        guard let animator = container?.window?.animator else { land(); return }
        homeAnimation = animator.animate(duration: Self.homeDuration(distance: distance), easing: .easeInOut, update: { [weak self] p in
            guard let self else { return }
            // The home is read every frame: the content may still move under it.
            let home = self.homeOrigin()
            self.lifted.shadowStrength = startShadow * (1 - p)
            self.lifted.place(itemOrigin: start + (home - start) * p, scale: startScale + (1 - startScale) * p)
        }, completion: { [weak self] _ in self?.land() })
    }

    /// Gives up: the item goes back to its own place, nothing is moved, and the drop commits
    /// nothing (the host's list changed under the drag).
    public func cancel() {
        guard !isLanding else { return }
        isCancelled = true
        plan = ReorderPlan(from: plan.from, to: plan.from)
        host?.reorderPlanDidChange(plan)
        drop()
    }

    /// Ends at once: the item goes straight home (the host is reloading or going away).
    public func finishNow() {
        if !isLanding { drop() }
        homeAnimation?.cancel()
        land()
    }

    /// Keeps the grabbed point under the finger at `scale` (the thumbnail grows around it).
    private func follow(scale: Double) {
        guard let container else { return }
        lifted.place(itemOrigin: container.convert(finger, from: nil) - grab * scale, scale: scale)
    }

    /// The seed autoscrolls only while the dragged thumbnail overlaps the scroll view.
    private var liftedOverHost: Bool {
        guard let host, let container else { return false }
        return container.convert(lifted.itemFrame, to: nil).intersects(host.convert(host.bounds, to: nil))
    }

    /// Re-reads the drop index: the slot under the finger in the content.
    func updatePlan() {
        guard let host, !isLanding, !isCancelled else { return }
        let slot = host.reorderSlot(at: host.convert(finger, from: nil))
        guard slot != plan.to else { return }
        plan = ReorderPlan(from: plan.from, to: slot)
        host.reorderPlanDidChange(plan)
    }

    private func homeOrigin() -> Point {
        guard let host, let container else { return lifted.itemFrame.origin }
        return container.convert(host.reorderSlotFrame(plan.to).origin, from: host)
    }

    private func land() {
        guard !isFinished else { return }
        isFinished = true
        scaleAnimation?.cancel()
        homeAnimation?.cancel()
        let item = lifted.releaseItem()
        lifted.removeFromSuperview()
        host?.reorderDidLand(item, at: plan.to)
    }
}
