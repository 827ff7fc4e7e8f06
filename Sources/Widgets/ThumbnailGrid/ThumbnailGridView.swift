import Graphics
import UI

/// A vertically scrolling grid of photo thumbnails for libraries of any size.
///
/// Only cells that intersect the visible rectangle or the prefetch margin (about a screen above
/// and below) exist; cells scrolled out are recycled. After every layout the grid tells its
/// `provider` which thumbnails it wants and how urgently (visible ones first, outwards from the
/// centre), so loads for cells scrolled away are dropped before they start.
///
/// A long press on a thumbnail picks it up for reordering (see `ReorderDrag`): it follows the
/// finger, the grid autoscrolls while it is held near the top or bottom edge, the others slide
/// out of its way, and on lift `onMove` tells the owner to reorder its list.
public final class ThumbnailGridView: ScrollView {
    public weak var provider: ThumbnailProvider? {
        didSet {
            // A provider swapped mid-fling: the old one must not stay deferred.
            if isDeferringLoads, oldValue !== provider {
                oldValue?.setLoadsDeferred(false)
                provider?.setLoadsDeferred(true)
            }
            reloadData()
        }
    }
    /// Called with the photo index a tap landed on.
    public var onSelect: ((Int) -> Void)?

    public var itemCount = 0 {
        didSet { if itemCount != oldValue { setNeedsLayout() } }
    }
    public var preferredCellSize = 240.0 {
        didSet { if preferredCellSize != oldValue { setNeedsLayout() } }
    }
    public var spacing = 8.0 {
        didSet { if spacing != oldValue { setNeedsLayout() } }
    }
    /// Whole rows fill the height: the layout is chosen so no thumbnail is cut at the bottom of
    /// the screen at rest (GridLayout's `init(width:height:...)`).
    public var fitsRowsToHeight = false {
        didSet { if fitsRowsToHeight != oldValue { setNeedsLayout() } }
    }
    /// Extra height above and below the viewport whose cells are built and loaded ahead.
    /// Nil means one viewport height.
    public var prefetchMargin: Double?
    /// Font for the "broken photo" label.
    public var font: Font?
    /// Thumbnail loads wait while the grid is flung fast and resume as it slows down (the
    /// provider is told through `setLoadsDeferred`); nil loads at any speed.
    public var loadDeferral: FlingLoadDeferral? = FlingLoadDeferral() {
        didSet {
            // Turned off (or replaced) mid-fling by the owner: loads resume now.
            if !isObservingSpeed, oldValue?.isDeferring == true, !isDeferringLoads {
                deferralCheck?.invalidate()
                deferralCheck = nil
                provider?.setLoadsDeferred(false)
            }
        }
    }
    public var isDeferringLoads: Bool { loadDeferral?.isDeferring ?? false }

    /// A drag moved photo `from` to index `to`; the owner reorders its list (and saves it)
    /// before the grid asks for thumbnails again.
    public var onMove: ((_ from: Int, _ to: Int) -> Void)?
    /// The drag is over and the carried thumbnail is back in the grid (after `onMove`, if it
    /// moved): the owner may change the list again.
    public var onReorderEnd: (() -> Void)?
    /// A long press landed on no photo (content coordinates): the place for a "reset order" prompt.
    public var onLongPressEmptyArea: ((Point) -> Void)?
    public var isReorderEnabled = true
    /// Screen pixels per point: scales the autoscroll zone and speed.
    public var reorderDensity = 1.0
    /// Where a picked-up thumbnail is carried (above the grid); nil means the window.
    public weak var liftContainer: View?
    /// The drag in progress (also while the dropped thumbnail flies home).
    public var reorderDrag: ReorderDrag? { cells.drag }
    public var isReordering: Bool { reorderDrag != nil }

    public private(set) var layout = GridLayout(width: 0, itemCount: 0, preferredCellSize: 240)
    private let cells = ReorderableCells<ThumbnailCellView>()
    private var reusableCells: [ThumbnailCellView] = []
    private var lastWanted: [Int: Double] = [:]
    private let tapRecognizer = TapGestureRecognizer()
    public let longPressRecognizer = LongPressGestureRecognizer()
    /// While loads are deferred: looks at the speed again even when no frame moves the content
    /// (a finger holding it still after a fast drag).
    private var deferralCheck: ScheduledTimer?
    /// Set while the grid itself updates `loadDeferral` (it tells the provider then).
    private var isObservingSpeed = false

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        backgroundColor = Color(rgb: 0x111114)
        alwaysBounceVertical = true
        tapRecognizer.addAction { [unowned self] recognizer in
            guard recognizer.state == .ended,
                  let index = self.layout.index(at: recognizer.location(in: self)) else { return }
            self.onSelect?(index)
        }
        addGestureRecognizer(tapRecognizer)
        longPressRecognizer.addAction { [unowned self] recognizer in
            self.handleLongPress(recognizer)
        }
        addGestureRecognizer(longPressRecognizer)
    }

    /// Thumbnail edge in pixels the cells need now.
    public var thumbnailEdge: Int { Int(layout.cellSize.rounded(.up)) }

    /// Indices of the cells that intersect the visible rectangle.
    public var visibleIndices: [Int] {
        layout.indices(intersecting: bounds).filter { layout.frame(of: $0).intersects(bounds) }
    }

    /// Indices of the cells that exist (visible plus prefetch), sorted.
    public var liveIndices: [Int] { cells.byIndex.keys.sorted() }

    /// The cell view showing photo `index` (in the list's order), if it exists; also while it
    /// is carried.
    public func cell(at index: Int) -> ThumbnailCellView? { cells.cell(at: index) }

    /// The photo shown in `slot` now (they differ only while a thumbnail is being dragged).
    public func item(inSlot slot: Int) -> Int { cells.item(inSlot: slot) }

    /// Asks the provider again for every live cell (after the photo list changed).
    public func reloadData() {
        cancelReorder()
        for (index, cell) in cells.byIndex {
            cell.state = provider?.thumbnailState(at: index, edge: thumbnailEdge) ?? .loading
            updateBadge(of: cell, at: index)
        }
        lastWanted = [:]
        setNeedsLayout()
    }

    /// The provider has a new thumbnail (or failure) for `index`.
    public func thumbnailDidChange(at index: Int) {
        guard let cell = cell(at: index), let provider else { return }
        cell.state = provider.thumbnailState(at: index, edge: thumbnailEdge)
        updateBadge(of: cell, at: index)
    }

    /// The provider's load for `index` arrived: `state` is its thumbnail (or failure), shown
    /// as it is, without asking the provider again.
    public func thumbnailDidChange(at index: Int, to state: ThumbnailState) {
        guard let cell = cell(at: index) else { return }
        cell.state = state
        updateBadge(of: cell, at: index)
    }

    /// The cell's badge: its clip's length, or whether it is a Live Photo.
    private func updateBadge(of cell: ThumbnailCellView, at index: Int) {
        cell.clipDuration = provider?.clipDuration(at: index)
        cell.isLivePhoto = provider?.isLivePhoto(at: index) ?? false
    }

    /// Scrolls so that `index` is visible (used when returning from the album).
    public func scrollToItem(_ index: Int, animated: Bool) {
        guard index >= 0, index < itemCount else { return }
        layoutIfNeeded()
        scrollRectToVisible(layout.frame(of: index).insetBy(dx: 0, dy: -layout.rowSpacing), animated: animated)
    }

    /// Whether every visible cell shows its thumbnail or its failure (nothing still loading).
    public var isVisibleContentLoaded: Bool {
        visibleIndices.allSatisfy { index in
            if case .loading = cell(at: item(inSlot: index))?.state ?? .loading { return false }
            return true
        }
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let newLayout = fitsRowsToHeight
            ? GridLayout(width: bounds.width, height: bounds.height, itemCount: itemCount,
                         preferredCellSize: preferredCellSize, spacing: spacing)
            : GridLayout(width: bounds.width, itemCount: itemCount, preferredCellSize: preferredCellSize, spacing: spacing)
        if newLayout != layout {
            cancelReorder()
            let anchor = layout.width != newLayout.width && layout.itemCount > 0 ? visibleIndices.first : nil
            layout = newLayout
            contentSize = layout.contentSize
            cells.removeAll(except: []).forEach(recycle)
            if let anchor {
                // Rotation or resize: keep the first visible photo at the top.
                contentOffset = clampedOffset(Point(x: 0, y: layout.frame(of: min(anchor, itemCount - 1)).minY - layout.rowSpacing))
            } else if !isDragging && !isMoving && !isTracking {
                // Photos removed while scrolled far down: do not stay past the new end.
                let clamped = clampedOffset(contentOffset)
                if clamped != contentOffset { contentOffset = clamped }
            }
        }
        updateLiveCells()
    }

    private func updateLiveCells() {
        let margin = prefetchMargin ?? bounds.height
        let live = bounds.insetBy(dx: 0, dy: -margin)
        let wantedRange = layout.indices(intersecting: live)
        // Cells are keyed by photo; while a thumbnail is dragged, slot and photo differ.
        let carried = cells.carriedItem
        var wantedItems = Set(wantedRange.map(item(inSlot:)))
        if let carried { wantedItems.remove(carried) }
        cells.removeAll(except: wantedItems).forEach(recycle)
        let edge = thumbnailEdge
        var distances: [Int: Double] = [:]
        distances.reserveCapacity(wantedRange.count)
        if let carried { distances[carried] = 0 }
        for slot in wantedRange {
            let index = item(inSlot: slot)
            guard index != carried else { continue }
            let frame = layout.frame(of: slot)
            let cell: ThumbnailCellView
            if let existing = cells.byIndex[index] {
                cell = existing
            } else {
                cell = dequeueCell()
                cell.index = index
                cell.state = provider?.thumbnailState(at: index, edge: edge) ?? .loading
                updateBadge(of: cell, at: index)
                cells.insert(cell, at: index)
                addSubview(cell)
            }
            cells.place(cell, at: frame)
            distances[index] = urgency(of: frame)
        }
        observeScrollSpeed()
        if distances != lastWanted {
            lastWanted = distances
            provider?.updateWantedThumbnails(distances, edge: edge)
        }
    }

    /// Feeds the fling detector; only a drag or a fling counts as motion, so a programmatic jump
    /// (back from the album, a reload) never defers loads.
    private func observeScrollSpeed() {
        guard var deferral = loadDeferral else { return }
        let changed: Bool
        if let now = window?.scheduler.now, isTracking || isMoving {
            changed = deferral.observe(offset: contentOffset, at: now)
        } else {
            changed = deferral.reset()
        }
        isObservingSpeed = true
        loadDeferral = deferral
        isObservingSpeed = false
        guard changed else { return }
        provider?.setLoadsDeferred(deferral.isDeferring)
        deferralCheck?.invalidate()
        deferralCheck = deferral.isDeferring
            ? window?.scheduler.schedule(after: 0.05, repeating: 0.05) { [weak self] in self?.observeScrollSpeed() }
            : nil
    }

    /// Visible cells come first (by distance from the viewport's centre), then the prefetch area
    /// by distance from the viewport's edge.
    private func urgency(of frame: Rect) -> Double {
        let viewport = bounds
        let fromCentre = abs(frame.midY - viewport.midY) + abs(frame.midX - viewport.midX) / 4
        if frame.intersects(viewport) { return fromCentre }
        let outside = frame.maxY <= viewport.minY ? viewport.minY - frame.maxY : frame.minY - viewport.maxY
        return viewport.height + outside
    }

    private func dequeueCell() -> ThumbnailCellView {
        if let cell = reusableCells.popLast() {
            cell.isHidden = false
            return cell
        }
        let cell = ThumbnailCellView()
        cell.font = font
        cell.isUserInteractionEnabled = false
        return cell
    }

    func recycle(_ cell: ThumbnailCellView) {
        cell.removeFromSuperview()
        cell.state = .loading
        cell.clipDuration = nil
        cell.isLivePhoto = false
        reusableCells.append(cell)
    }
}

// MARK: Reordering

extension ThumbnailGridView: ReorderingCellHost {
    private func handleLongPress(_ recognizer: GestureRecognizer) {
        let finger = recognizer.location(in: nil)
        switch recognizer.state {
        case .began:
            let point = recognizer.location(in: self)
            guard let index = layout.index(at: point) else {
                onLongPressEmptyArea?(point)
                return
            }
            beginReorder(at: index, finger: finger)
        case .changed:
            reorderDrag?.move(to: finger)
        case .ended, .cancelled:
            if let drag = reorderDrag, !drag.isLanding {
                drag.move(to: finger)
                drag.drop()
            }
        default:
            break
        }
    }

    /// Picks up photo `index` under `finger` (window coordinates), as a long press does.
    public func beginReorder(at index: Int, finger: Point) {
        guard isReorderEnabled, index >= 0, index < itemCount else { return }
        reorderDrag?.finishNow()
        guard let container = liftContainer ?? window else { return }
        stopMotion()
        layoutIfNeeded()
        guard cells.pickUp(index, from: self, finger: finger, container: container,
                           axis: .vertical, density: reorderDensity) else { return }
        setNeedsLayout()
    }

    /// Puts a carried thumbnail back where it came from without moving anything (the photo
    /// list changed under the drag, so its indices no longer hold).
    public func cancelReorder() { cells.cancel() }

    func reorderSlotFrame(_ index: Int) -> Rect { layout.frame(of: index) }

    func reorderSlot(at point: Point) -> Int { layout.nearestIndex(to: point) }

    var reorderCells: ReorderableCells<ThumbnailCellView> { cells }

    func forgetWantedThumbnails() { lastWanted = [:] }
}

extension ThumbnailCellView: ReorderableCell {}
