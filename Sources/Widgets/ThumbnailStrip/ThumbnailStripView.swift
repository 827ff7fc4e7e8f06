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
    /// The drag is over and the carried thumbnail is back in the strip.
    public var onReorderEnd: (() -> Void)?
    public var isReorderEnabled = true
    /// Screen pixels per point: scales the drag threshold and the autoscroll zone and speed.
    public var reorderDensity = 1.0
    /// Where a picked-up thumbnail is carried (above the strip, so it can leave it); nil
    /// means the window.
    public weak var liftContainer: View?
    public var reorderDrag: ReorderDrag? { items.drag }
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
    /// When all thumbnails fit with room to spare, they sit in the middle instead of at the
    /// left end (the album's filmstrip of a small album).
    public var centersItems = false {
        didSet { if centersItems != oldValue { setNeedsLayout() } }
    }
    /// The photo drawn with a ring (the album's current page); nil for none.
    public var selectedIndex: Int? {
        didSet {
            guard selectedIndex != oldValue else { return }
            for (index, item) in items.byIndex { item.isSelected = index == selectedIndex }
        }
    }
    /// The thumbnail edge asked of the provider; nil means the cells' own size. Under an album
    /// the grid's edge is asked, so the strip shows thumbnails already decoded and cached
    /// instead of decoding every photo again at a second size.
    public var requestedThumbnailEdge: Int? {
        didSet { if requestedThumbnailEdge != oldValue { reloadData() } }
    }

    public private(set) var layout = StripLayout(height: 0, itemCount: 0)
    private let items = ReorderableCells<StripItemView>()
    private var reusableItems: [StripItemView] = []
    private var lastWanted: [Int: Double] = [:]

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        backgroundColor = Color(rgb: 0x111114)
        alwaysBounceHorizontal = true
        showsVerticalScrollIndicator = false
        delaysContentTouches = true
        canCancelContentTouches = false
    }

    public var thumbnailEdge: Int { requestedThumbnailEdge ?? Int(layout.cellSize.rounded(.up)) }

    /// Indices of the cells that intersect the visible rectangle (slots).
    public var visibleIndices: [Int] { Array(layout.indices(intersecting: bounds)) }

    /// Whether every visible cell shows its thumbnail or its failure (nothing still loading).
    public var isVisibleContentLoaded: Bool {
        visibleIndices.allSatisfy { slot in
            guard let cell = cell(at: item(inSlot: slot)) else { return false }
            if case .loading = cell.state { return false }
            return true
        }
    }

    /// Photo indices of the cells that exist, sorted.
    public var liveIndices: [Int] { items.byIndex.keys.sorted() }

    /// The cell showing photo `index` (also while it is carried).
    public func cell(at index: Int) -> ThumbnailCellView? { itemView(at: index)?.cell }

    /// The photo shown in `slot` now (they differ only while a thumbnail is being dragged).
    public func item(inSlot slot: Int) -> Int { items.item(inSlot: slot) }

    func itemView(at index: Int) -> StripItemView? { items.cell(at: index) }

    public func reloadData() {
        cancelReorder()
        for (index, item) in items.byIndex {
            item.cell.state = provider?.thumbnailState(at: index, edge: thumbnailEdge) ?? .loading
        }
        lastWanted = [:]
        setNeedsLayout()
    }

    public func thumbnailDidChange(at index: Int) {
        guard let view = itemView(at: index), let provider else { return }
        view.cell.state = provider.thumbnailState(at: index, edge: thumbnailEdge)
    }

    /// The provider's load for `index` arrived with `state` (see the grid's).
    public func thumbnailDidChange(at index: Int, to state: ThumbnailState) {
        itemView(at: index)?.cell.state = state
    }

    public func scrollToItem(_ index: Int, animated: Bool) {
        guard index >= 0, index < itemCount else { return }
        layoutIfNeeded()
        scrollRectToVisible(layout.frame(of: index).insetBy(dx: -spacing, dy: 0), animated: animated)
    }

    /// Scrolls so photo `index` is in the middle of the strip (as near as the ends allow).
    public func centerItem(_ index: Int, animated: Bool) {
        guard index >= 0, index < itemCount else { return }
        layoutIfNeeded()
        let frame = layout.frame(of: index)
        let target = clampedOffset(Point(x: frame.midX - bounds.width / 2, y: contentOffset.y))
        guard abs(target.x - contentOffset.x) > 0.5 else { return }
        setContentOffset(target, animated: animated)
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let newLayout = StripLayout(height: bounds.height, itemCount: itemCount, spacing: spacing)
        if newLayout != layout {
            cancelReorder()
            layout = newLayout
            contentSize = layout.contentSize
            items.removeAll(except: []).forEach(recycle)
        }
        let inset = centersItems ? max(0, ((bounds.width - layout.contentWidth) / 2).rounded(.down)) : 0
        if contentInset.left != inset {
            contentInset = EdgeInsets(left: inset)
            contentOffset = clampedOffset(contentOffset)
        }
        updateLiveItems()
    }

    private func updateLiveItems() {
        let margin = prefetchMargin ?? bounds.width
        let wantedRange = layout.indices(intersecting: bounds.insetBy(dx: -margin, dy: 0))
        let carried = items.carriedItem
        var wantedItems = Set(wantedRange.map(item(inSlot:)))
        if let carried { wantedItems.remove(carried) }
        items.removeAll(except: wantedItems).forEach(recycle)
        let edge = thumbnailEdge
        var distances: [Int: Double] = [:]
        if let carried { distances[carried] = 0 }
        for slot in wantedRange {
            let index = item(inSlot: slot)
            guard index != carried else { continue }
            let frame = layout.frame(of: slot)
            let view: StripItemView
            if let existing = items.byIndex[index] {
                view = existing
            } else {
                view = dequeueItem()
                view.index = index
                view.isSelected = index == selectedIndex
                view.cell.state = provider?.thumbnailState(at: index, edge: edge) ?? .loading
                items.insert(view, at: index)
                addSubview(view)
            }
            items.place(view, at: frame)
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

    func recycle(_ item: StripItemView) {
        item.removeFromSuperview()
        item.cell.state = .loading
        item.transform = .identity
        reusableItems.append(item)
    }
}

// MARK: Reordering

extension ThumbnailStripView: ReorderingCellHost {
    /// Picks up `item` under `finger` (window coordinates); false when reordering is off.
    @discardableResult
    func beginReorder(_ item: StripItemView, finger: Point) -> Bool {
        guard isReorderEnabled, reorderDrag == nil, items.byIndex[item.index] === item,
              let container = liftContainer ?? window else { return false }
        stopMotion()
        _ = items.pickUp(item.index, from: self, finger: finger, container: container,
                         axis: .horizontal, density: reorderDensity)
        setNeedsLayout()
        return true
    }

    /// Puts a carried thumbnail back where it came from without moving anything.
    public func cancelReorder() { items.cancel() }

    func reorderSlotFrame(_ index: Int) -> Rect { layout.frame(of: index) }

    func reorderSlot(at point: Point) -> Int { layout.nearestIndex(to: point) }

    var reorderCells: ReorderableCells<StripItemView> { items }

    func forgetWantedThumbnails() { lastWanted = [:] }
}

extension StripItemView: ReorderableCell {}
