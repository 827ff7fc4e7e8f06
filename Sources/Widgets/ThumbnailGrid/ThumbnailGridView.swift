import Graphics
import UI

/// A vertically scrolling grid of photo thumbnails for libraries of any size.
///
/// Only cells that intersect the visible rectangle or the prefetch margin (about a screen above
/// and below) exist; cells scrolled out are recycled. After every layout the grid tells its
/// `provider` which thumbnails it wants and how urgently (visible ones first, outwards from the
/// centre), so loads for cells scrolled away are dropped before they start.
public final class ThumbnailGridView: ScrollView {
    public weak var provider: ThumbnailProvider? {
        didSet { reloadData() }
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
    /// Extra height above and below the viewport whose cells are built and loaded ahead.
    /// Nil means one viewport height.
    public var prefetchMargin: Double?
    /// Font for the "broken photo" label.
    public var font: Font?

    public private(set) var layout = GridLayout(width: 0, itemCount: 0, preferredCellSize: 240)
    private var cells: [Int: ThumbnailCellView] = [:]
    private var reusableCells: [ThumbnailCellView] = []
    private var lastWanted: [Int: Double] = [:]
    private let tapRecognizer = TapGestureRecognizer()

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
    }

    /// Thumbnail edge in pixels the cells need now.
    public var thumbnailEdge: Int { Int(layout.cellSize.rounded(.up)) }

    /// Indices of the cells that intersect the visible rectangle.
    public var visibleIndices: [Int] {
        layout.indices(intersecting: bounds).filter { layout.frame(of: $0).intersects(bounds) }
    }

    /// Indices of the cells that exist (visible plus prefetch), sorted.
    public var liveIndices: [Int] { cells.keys.sorted() }

    /// The cell view showing `index`, if it exists.
    public func cell(at index: Int) -> ThumbnailCellView? { cells[index] }

    /// Asks the provider again for every live cell (after the photo list changed).
    public func reloadData() {
        for (index, cell) in cells {
            cell.state = provider?.thumbnailState(at: index, edge: thumbnailEdge) ?? .loading
        }
        lastWanted = [:]
        setNeedsLayout()
    }

    /// The provider has a new thumbnail (or failure) for `index`.
    public func thumbnailDidChange(at index: Int) {
        guard let cell = cells[index], let provider else { return }
        cell.state = provider.thumbnailState(at: index, edge: thumbnailEdge)
    }

    /// Scrolls so that `index` is visible (used when returning from the album).
    public func scrollToItem(_ index: Int, animated: Bool) {
        guard index >= 0, index < itemCount else { return }
        layoutIfNeeded()
        scrollRectToVisible(layout.frame(of: index).insetBy(dx: 0, dy: -spacing), animated: animated)
    }

    /// Whether every visible cell shows its thumbnail or its failure (nothing still loading).
    public var isVisibleContentLoaded: Bool {
        visibleIndices.allSatisfy { index in
            if case .loading = cells[index]?.state ?? .loading { return false }
            return true
        }
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let newLayout = GridLayout(width: bounds.width, itemCount: itemCount,
                                   preferredCellSize: preferredCellSize, spacing: spacing)
        if newLayout != layout {
            let anchor = layout.width != newLayout.width && layout.itemCount > 0 ? visibleIndices.first : nil
            layout = newLayout
            contentSize = layout.contentSize
            for (_, cell) in cells { recycle(cell) }
            cells.removeAll()
            if let anchor {
                // Rotation or resize: keep the first visible photo at the top.
                contentOffset = clampedOffset(Point(x: 0, y: layout.frame(of: min(anchor, itemCount - 1)).minY - spacing))
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
        for (index, cell) in cells where !wantedRange.contains(index) {
            recycle(cell)
            cells[index] = nil
        }
        let edge = thumbnailEdge
        var distances: [Int: Double] = [:]
        distances.reserveCapacity(wantedRange.count)
        for index in wantedRange {
            let frame = layout.frame(of: index)
            let cell: ThumbnailCellView
            if let existing = cells[index] {
                cell = existing
            } else {
                cell = dequeueCell()
                cell.index = index
                cell.state = provider?.thumbnailState(at: index, edge: edge) ?? .loading
                cells[index] = cell
                addSubview(cell)
            }
            if cell.frame != frame { cell.frame = frame }
            distances[index] = urgency(of: frame)
        }
        if distances != lastWanted {
            lastWanted = distances
            provider?.updateWantedThumbnails(distances, edge: edge)
        }
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

    private func recycle(_ cell: ThumbnailCellView) {
        cell.removeFromSuperview()
        cell.state = .loading
        reusableCells.append(cell)
    }
}
