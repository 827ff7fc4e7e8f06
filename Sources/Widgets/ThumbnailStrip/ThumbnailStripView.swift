import Graphics
import UI

/// A horizontal strip of photo thumbnails (ScrollViewSuite's 160-px thumbnail strip), reusable
/// under an album or on its own. Like the grid it builds only the cells near the viewport and
/// asks its `provider` (the same `ThumbnailProvider` protocol as the grid) for thumbnails.
///
/// Reordering follows the seed: delaysContentTouches on and canCancelContentTouches off, so a
/// quick swipe scrolls the strip while a finger that rests for a moment (longer than the
/// scroll view's content-touch delay) and then moves past the 10-px drag threshold picks the
/// thumbnail up. It autoscrolls horizontally near the ends; on lift `onMove` reorders.
public final class ThumbnailStripView: ScrollView {
    /// ScrollViewSuite's DRAG_THRESHOLD, in points.
    public static let dragThreshold = 10.0
    /// ScrollViewSuite's strip height (150-px thumbnails plus 10-px padding).
    public static let defaultHeight = 160.0

    public weak var provider: ThumbnailProvider? {
        didSet { reloadData() }
    }
    /// Called with the photo index a tap landed on.
    public var onSelect: ((Int) -> Void)?
    /// A drag moved photo `from` to index `to`; the owner reorders its list.
    public var onMove: ((_ from: Int, _ to: Int) -> Void)?
    public var isReorderEnabled = true
    /// Screen pixels per point: scales the drag threshold and the autoscroll zone and speed.
    public var reorderDensity = 1.0
    /// Where a picked-up thumbnail is carried (above the strip, so it can leave it); nil
    /// means the window.
    public weak var liftContainer: View?
    public private(set) var reorderDrag: ReorderDrag?
    public var isReordering: Bool { reorderDrag != nil }

    public var itemCount = 0 {
        didSet { if itemCount != oldValue { setNeedsLayout() } }
    }
    public var spacing = 10.0 {
        didSet { if spacing != oldValue { setNeedsLayout() } }
    }
    /// Extra width left and right of the viewport whose cells are built and loaded ahead; nil
    /// means one viewport width.
    public var prefetchMargin: Double?
    public var font: Font?

    public private(set) var layout = StripLayout(height: 0, itemCount: 0)
    private var items: [Int: StripItemView] = [:]
    private var reusableItems: [StripItemView] = []
    private var lastWanted: [Int: Double] = [:]
    private let moveTransition = FrameTransition()
    private var landingSlot: Int?

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        backgroundColor = Color(rgb: 0x111114)
        alwaysBounceHorizontal = true
        showsVerticalScrollIndicator = false
        delaysContentTouches = true
        canCancelContentTouches = false
    }

    public var thumbnailEdge: Int { Int(layout.cellSize.rounded(.up)) }

    /// Indices of the cells that intersect the visible rectangle (slots).
    public var visibleIndices: [Int] { Array(layout.indices(intersecting: bounds)) }

    /// Photo indices of the cells that exist, sorted.
    public var liveIndices: [Int] { items.keys.sorted() }

    /// The cell showing photo `index` (also while it is carried).
    public func cell(at index: Int) -> ThumbnailCellView? { itemView(at: index)?.cell }

    /// The photo shown in `slot` now (they differ only while a thumbnail is being dragged).
    public func item(inSlot slot: Int) -> Int {
        guard let drag = reorderDrag, !drag.isLanding else { return slot }
        return drag.plan.item(atDisplay: slot)
    }

    func itemView(at index: Int) -> StripItemView? {
        if let drag = reorderDrag, index == carriedItem { return drag.lifted.item as? StripItemView }
        return items[index]
    }

    private var carriedItem: Int? {
        guard let drag = reorderDrag else { return nil }
        return drag.isLanding ? landingSlot : drag.plan.from
    }

    public func reloadData() {
        cancelReorder()
        for (index, item) in items {
            item.cell.state = provider?.thumbnailState(at: index, edge: thumbnailEdge) ?? .loading
        }
        lastWanted = [:]
        setNeedsLayout()
    }

    public func thumbnailDidChange(at index: Int) {
        guard let view = itemView(at: index), let provider else { return }
        view.cell.state = provider.thumbnailState(at: index, edge: thumbnailEdge)
    }

    public func scrollToItem(_ index: Int, animated: Bool) {
        guard index >= 0, index < itemCount else { return }
        layoutIfNeeded()
        scrollRectToVisible(layout.frame(of: index).insetBy(dx: -spacing, dy: 0), animated: animated)
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let newLayout = StripLayout(height: bounds.height, itemCount: itemCount, spacing: spacing)
        if newLayout != layout {
            cancelReorder()
            layout = newLayout
            contentSize = layout.contentSize
            for (_, item) in items { recycle(item) }
            items.removeAll()
        }
        updateLiveItems()
    }

    private func updateLiveItems() {
        let margin = prefetchMargin ?? bounds.width
        let wantedRange = layout.indices(intersecting: bounds.insetBy(dx: -margin, dy: 0))
        let carried = carriedItem
        var wantedItems = Set(wantedRange.map(item(inSlot:)))
        if let carried { wantedItems.remove(carried) }
        for (index, item) in items where !wantedItems.contains(index) {
            moveTransition.remove(item)
            recycle(item)
            items[index] = nil
        }
        let edge = thumbnailEdge
        var distances: [Int: Double] = [:]
        if let carried { distances[carried] = 0 }
        for slot in wantedRange {
            let index = item(inSlot: slot)
            guard index != carried else { continue }
            let frame = layout.frame(of: slot)
            let view: StripItemView
            if let existing = items[index] {
                view = existing
            } else {
                view = dequeueItem()
                view.index = index
                view.cell.state = provider?.thumbnailState(at: index, edge: edge) ?? .loading
                items[index] = view
                addSubview(view)
            }
            if view.frame != frame && !moveTransition.isMoving(view) { view.frame = frame }
            let fromCentre = abs(frame.midX - bounds.midX)
            distances[index] = frame.intersects(bounds) ? fromCentre : bounds.width + fromCentre
        }
        if distances != lastWanted {
            lastWanted = distances
            provider?.updateWantedThumbnails(distances, edge: edge)
        }
    }

    private func dequeueItem() -> StripItemView {
        if let item = reusableItems.popLast() { return item }
        let item = StripItemView()
        item.strip = self
        item.cell.font = font
        return item
    }

    private func recycle(_ item: StripItemView) {
        item.removeFromSuperview()
        item.cell.state = .loading
        item.transform = .identity
        reusableItems.append(item)
    }
}

// MARK: Reordering

extension ThumbnailStripView: ReorderHost {
    /// Picks up `item` under `finger` (window coordinates); false when reordering is off.
    @discardableResult
    func beginReorder(_ item: StripItemView, finger: Point) -> Bool {
        guard isReorderEnabled, reorderDrag == nil, items[item.index] === item,
              let container = liftContainer ?? window else { return false }
        stopMotion()
        moveTransition.remove(item)
        items[item.index] = nil
        reorderDrag = ReorderDrag(host: self, item: item, index: item.index, finger: finger, container: container,
                                  axis: .horizontal, density: reorderDensity)
        setNeedsLayout()
        return true
    }

    /// Puts a carried thumbnail back where it came from without moving anything.
    public func cancelReorder() {
        guard let drag = reorderDrag else { return }
        if !drag.isLanding { drag.cancel() }
        drag.finishNow()
        moveTransition.finish()
    }

    func reorderSlotFrame(_ index: Int) -> Rect { layout.frame(of: index) }

    func reorderSlot(at point: Point) -> Int { layout.nearestIndex(to: point) }

    func reorderPlanDidChange(_ plan: ReorderPlan) {
        let targets: [(view: View, frame: Rect)] = items.map { ($0.value, layout.frame(of: plan.displayIndex(of: $0.key))) }
        moveTransition.move(targets, duration: ReorderDrag.rearrangeDuration, animator: window?.animator)
        setNeedsLayout()
    }

    func reorderDidDrop(_ plan: ReorderPlan) {
        items = plan.rekeyed(items)
        for (index, item) in items { item.index = index }
        (reorderDrag?.lifted.item as? StripItemView)?.index = plan.to
        landingSlot = plan.to
        lastWanted = [:]
        if plan.from != plan.to { onMove?(plan.from, plan.to) }
        setNeedsLayout()
    }

    func reorderDidLand(_ view: View, at index: Int) {
        landingSlot = nil
        reorderDrag = nil
        guard let item = view as? StripItemView else { return }
        item.transform = .identity
        if items[index] == nil && index < itemCount {
            item.index = index
            item.frame = layout.frame(of: index)
            items[index] = item
            addSubview(item)
        } else {
            recycle(item)
        }
        setNeedsLayout()
    }
}
