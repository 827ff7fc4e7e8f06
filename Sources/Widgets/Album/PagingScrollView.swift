import Graphics
import UI

/// Horizontal pages with a gap between them, snapping page by page (Nimbus' NIPagingScrollView).
///
/// The inner paging scroll view is wider than this view by `pageMargin` on each side and every
/// page is inset by the margin, so pages sit `2 × pageMargin` apart while each page is exactly
/// this view's size. Only the centre page and its neighbours exist; pages that leave that window
/// are recycled (`onRecycle`, then handed back to `makePage` for another index).
public final class PagingScrollView: View, ScrollViewDelegate {
    public static let pageMargin = 10.0

    public let scrollView = ScrollView()
    /// Builds (or refills) the page view for an index; the second argument is a recycled page to
    /// reuse when there is one.
    public var makePage: ((Int, View?) -> View)?
    /// A page left the live window (stop its loads).
    public var onRecycle: ((View, Int) -> Void)?
    /// The centre page changed (during a drag as soon as another page is more than half in view).
    public var onCenterPageChange: ((Int) -> Void)?
    /// Scrolling came to rest (after a drag, fling or animation).
    public var onScrollEnd: (() -> Void)?

    public private(set) var pageCount = 0
    public private(set) var centerPageIndex = 0
    private var pages: [Int: View] = [:]
    private var reusable: [View] = []

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        scrollView.isPagingEnabled = true
        scrollView.showsHorizontalScrollIndicator = false
        scrollView.showsVerticalScrollIndicator = false
        scrollView.decelerationRate = DecelerationCurve.fastRate
        scrollView.delegate = self
        addSubview(scrollView)
        layoutScrollView()
    }

    /// Distance from one page's origin to the next.
    public var pageStride: Double { bounds.width + 2 * Self.pageMargin }

    /// Indices of the pages that exist, sorted.
    public var livePageIndices: [Int] { pages.keys.sorted() }
    public func page(at index: Int) -> View? { pages[index] }
    public var centerPage: View? { pages[centerPageIndex] }
    public var isScrolling: Bool { scrollView.isDragging || scrollView.isMoving }

    /// The page a content offset shows most of (Nimbus: floor((x + w/2) / w), clamped).
    public static func centerPage(offset: Double, pageStride: Double, pageCount: Int) -> Int {
        guard pageStride > 0, pageCount > 0 else { return 0 }
        let index = Int(((offset + pageStride / 2) / pageStride).rounded(.down))
        return min(max(index, 0), pageCount - 1)
    }

    /// Shows page `index`, sliding there when `animated` (0.3 s) or jumping.
    public func setCenterPageIndex(_ index: Int, animated: Bool) {
        guard pageCount > 0 else { return }
        let target = min(max(index, 0), pageCount - 1)
        layoutIfNeeded()
        let offset = Point(x: Double(target) * pageStride, y: 0)
        if animated && window != nil {
            scrollView.setContentOffset(offset, animated: true)
        } else {
            scrollView.setContentOffset(offset, animated: false)
            updatePages()
            onScrollEnd?()
        }
    }

    /// Forgets every page (the page count or the content changed) and builds the live ones again,
    /// around `index` if given (no `onCenterPageChange` for it), else around the current centre.
    public func reloadData(pageCount count: Int, centeredAt index: Int? = nil) {
        pageCount = max(0, count)
        for (index, page) in pages { recycle(page, index: index) }
        pages.removeAll()
        scrollView.stopMotion()
        scrollView.contentSize = Size(width: Double(pageCount) * pageStride, height: bounds.height)
        centerPageIndex = min(max(index ?? centerPageIndex, 0), max(0, pageCount - 1))
        scrollView.contentOffset = Point(x: Double(centerPageIndex) * pageStride, y: 0)
        updatePages()
    }

    public override func layoutSubviews() {
        let before = scrollView.bounds.size
        layoutScrollView()
        if scrollView.bounds.size != before {
            // Resized (rotation): keep the same page centred (Nimbus issue #253).
            scrollView.stopMotion()
            scrollView.contentOffset = Point(x: Double(centerPageIndex) * pageStride, y: 0)
            for (index, page) in pages { page.frame = frame(ofPage: index) }
        }
        updatePages()
    }

    private func layoutScrollView() {
        let m = Self.pageMargin
        scrollView.frame = Rect(x: -m, y: 0, width: bounds.width + 2 * m, height: bounds.height)
        scrollView.contentSize = Size(width: Double(pageCount) * pageStride, height: bounds.height)
    }

    /// Where page `index` sits in the scroll view's content.
    public func frame(ofPage index: Int) -> Rect {
        Rect(x: Double(index) * pageStride + Self.pageMargin, y: 0, width: bounds.width, height: bounds.height)
    }

    /// Recycles pages outside centre ± 1 and builds the missing ones, centre first.
    private func updatePages() {
        guard pageCount > 0, bounds.width > 0 else {
            for (index, page) in pages { recycle(page, index: index) }
            pages.removeAll()
            return
        }
        let center = Self.centerPage(offset: scrollView.contentOffset.x, pageStride: pageStride, pageCount: pageCount)
        let wanted = max(0, center - 1)...min(pageCount - 1, center + 1)
        for (index, page) in pages where !wanted.contains(index) {
            recycle(page, index: index)
            pages[index] = nil
        }
        for index in [center, center - 1, center + 1] where wanted.contains(index) && pages[index] == nil {
            guard let makePage else { break }
            let reused = reusable.popLast()
            let page = makePage(index, reused)
            page.frame = frame(ofPage: index)
            pages[index] = page
            if page.superview !== scrollView { scrollView.addSubview(page) }
        }
        if center != centerPageIndex {
            centerPageIndex = center
            onCenterPageChange?(center)
        }
    }

    private func recycle(_ page: View, index: Int) {
        page.removeFromSuperview()
        onRecycle?(page, index)
        reusable.append(page)
    }

    // MARK: ScrollViewDelegate

    public func scrollViewDidScroll(_ scrollView: ScrollView) {
        updatePages()
    }

    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate: Bool) {
        if !willDecelerate { onScrollEnd?() }
    }

    public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {
        onScrollEnd?()
    }

    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {
        onScrollEnd?()
    }
}
