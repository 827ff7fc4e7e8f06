import Graphics
import UI

/// A full-screen album: swipe between photos, pinch or double-tap to zoom, swipe down (at fit
/// zoom), the "‹ Grid" button or Escape to go back. Left/right arrow keys page; so do a tap or
/// a drag along the page indicator, and a tap on the filmstrip of thumbnails along the bottom
/// (see PhotoAlbumView+Filmstrip), which also reorders by drag.
///
/// The chrome (indicator, caption, filmstrip) shows on every page change and every touch, and
/// fades a moment later unless a finger is still on it. Its sizes are in points, scaled by
/// `metrics` (the screen's physical size where known).
///
/// Loading is progressive and driven by the `provider`: each page shows the best bitmap the
/// provider has now and improves as loads arrive (thumbnail → screen → full), never the other way.
/// The album tells the provider what it wants after every page change and zoom change: the centre
/// page at the quality its zoom needs, its neighbours and the page after the next one (in the
/// direction of paging) at screen quality by distance, so loads for photos paged past are
/// dropped.
public final class PhotoAlbumView: View {
    /// Seconds the page indicator and caption stay before fading.
    public static let chromeVisibleDuration = 1.5
    static let chromeFadeDuration = 0.4
    /// Pages ahead of the centre (the way the user last paged) whose screen images are preloaded.
    public static let preloadAhead = 2
    /// Pages behind the centre whose screen images are kept: the one a swipe back shows at once.
    /// One, not two: the second would be a screen bitmap (8.3 MB at 1920x1080) held at every
    /// moment of paging, the peak included, for a page two swipes the other way.
    public static let preloadBehind = 1
    /// A downward swipe this long (points) or this fast (points/s) closes the album.
    static let closeDistance = 120.0
    static let closeVelocity = 800.0

    public private(set) weak var provider: PhotoAlbumProvider?
    /// The user asked to go back to the grid.
    public var onClose: (() -> Void)?
    /// The centre page changed.
    public var onPageChange: ((Int) -> Void)?
    /// The pages came to rest with photo `index` in the centre (after a swipe, a jump, a
    /// reload): a clip there may play. May repeat for the same page.
    public var onPageSettled: ((Int) -> Void)?
    /// A single tap on photo `index`'s page (a playing clip pauses or goes on).
    public var onTapPage: ((Int) -> Void)?
    /// A finger held still on photo `index`'s page (true) and lifted (false), on pages for which
    /// `pageHasMotion` says yes (a Live Photo's motion plays meanwhile).
    public var onHoldPage: ((Int, Bool) -> Void)?
    /// Whether photo `index` has motion a hold plays; elsewhere a hold does nothing, so a finger
    /// resting before a swipe still pages.
    public var pageHasMotion: (Int) -> Bool = { _ in false }
    /// Whether a single tap on photo `index` does something (a clip pauses); elsewhere no single
    /// tap is recognised, so nothing waits on the double tap.
    public var pageTakesTaps: (Int) -> Bool = { _ in false }
    public var font: Font? {
        didSet { applyFont() }
    }
    public var showsCaptions = true
    /// Whether the pages around the centre are loaded ahead; off while a clip plays, whose
    /// decoder needs the memory more.
    public var preloadsNeighbours = true {
        didSet { if preloadsNeighbours != oldValue { updateDemands() } }
    }

    public let pager = PagingScrollView()
    public let indicator = PageIndicatorView()
    /// The thumbnails along the bottom (see PhotoAlbumView+Filmstrip).
    public let filmstrip = ThumbnailStripView()
    /// Sizes of the chrome (see ChromeMetrics).
    public var metrics = ChromeMetrics() {
        didSet { if metrics != oldValue { applyMetrics() } }
    }
    /// The user dragged a filmstrip thumbnail from `from` to `to`: the owner reorders its list;
    /// the album then shows the same photo at its new index.
    public var onMovePhoto: ((_ from: Int, _ to: Int) -> Void)?
    let caption = AlbumLabelView()
    let backButton = AlbumLabelView()
    public let swipeDownRecognizer = PanGestureRecognizer()
    private var chromeTimer: ScheduledTimer?
    private var chromeFade: Animation?
    private var swipeReturn: Animation?
    private var lastDemands: [Int: PhotoDemand] = [:]
    /// +1 or -1: the way the centre last moved (forward until the user pages back).
    private var pagingDirection = 1
    private var lastCenterIndex: Int?

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        clipsToBounds = true
        pager.frame = bounds
        // The pager is opaque (black between pages), so paging copies pixels; the album itself
        // fills only what the pager leaves uncovered (see draw), not the whole screen again.
        pager.scrollView.backgroundColor = .black
        pager.makePage = { [unowned self] index, reused in self.makePage(index, reusing: reused) }
        pager.onRecycle = { page, _ in (page as? PhotoPageView)?.prepare(for: -1) }
        pager.onCenterPageChange = { [unowned self] index in self.centerPageChanged(index) }
        pager.onScrollEnd = { [unowned self] in self.scrollEnded() }
        addSubview(pager)
        addSubview(filmstrip)
        addSubview(caption)
        addSubview(indicator)
        configureFilmstrip()
        indicator.onSelectPage = { [unowned self] page, animated in self.setCenterPageIndex(page, animated: animated) }
        addGestureRecognizer(TouchDownObserver { [weak self] in self?.showChrome() })
        backButton.text = "‹ Grid"
        backButton.drawsChevronWithoutFont = true
        caption.isUserInteractionEnabled = false
        caption.centersText = true
        addSubview(backButton)
        backButton.addGestureRecognizer(TapGestureRecognizer { [weak self] recognizer in
            if recognizer.state == .recognized { self?.onClose?() }
        })
        swipeDownRecognizer.shouldBegin = { [weak self] recognizer in self?.swipeDownShouldBegin(recognizer) ?? false }
        swipeDownRecognizer.addAction { [weak self] _ in self?.handleSwipeDown() }
        addGestureRecognizer(swipeDownRecognizer)
    }

    // MARK: State

    public var photoCount: Int { pager.pageCount }
    public var centerPageIndex: Int { pager.centerPageIndex }
    public var centerPage: PhotoPageView? { pager.centerPage as? PhotoPageView }
    public func page(at index: Int) -> PhotoPageView? { pager.page(at: index) as? PhotoPageView }
    /// The centre page shows what its zoom needs (or is broken).
    public var isCenterPageLoaded: Bool { centerPage?.isLoaded ?? (photoCount == 0) }
    /// Where the album's controls are drawn over the photo (back button, caption, indicator,
    /// filmstrip), in its own coordinates: a check of the photo's pixels leaves these out.
    public var chromeFrames: [Rect] {
        [backButton, caption, indicator, filmstrip].filter { !$0.isHidden && $0.alpha > 0.01 }.map(\.frame)
    }
    /// The chrome (indicator, caption, filmstrip) is showing or fading, not yet gone.
    public var isChromeVisible: Bool { indicator.alpha > 0.01 }

    /// The pages beside the centre let go of their bitmaps and show what the provider still has
    /// (a clip is about to play and its decoder needs the memory); they load again once
    /// `preloadsNeighbours` is back on or the centre moves.
    public func releaseNeighbourPages() {
        for i in pager.livePageIndices where i != centerPageIndex {
            guard let page = page(at: i) else { continue }
            page.prepare(for: i)
            if let provider { page.show(provider.photoContent(at: i)) }
        }
    }

    /// `pageHasMotion` may answer differently for photo `index` now (a Motion Photo found).
    public func motionDidChange(at index: Int) {
        page(at: index)?.holdRecognizer.isEnabled = pageHasMotion(index)
    }

    /// Shows photo `index`, sliding there when `animated`.
    public func setCenterPageIndex(_ index: Int, animated: Bool) {
        pager.setCenterPageIndex(index, animated: animated)
    }

    /// Shows `provider`'s photos starting at photo `index`.
    public func show(_ provider: PhotoAlbumProvider, at index: Int) {
        self.provider = provider
        reloadData(centeredAt: index)
    }

    /// Reads the photo count again and rebuilds the pages (around `index` if given, else the
    /// current photo).
    public func reloadData(centeredAt index: Int? = nil) {
        lastDemands = [:]
        lastCenterIndex = nil  // a reload (a reorder) moves the centre without paging
        pager.reloadData(pageCount: provider?.photoCount ?? 0, centeredAt: index)
        indicator.pageCount = pager.pageCount
        reloadFilmstrip()
        centerPageChanged(pager.centerPageIndex)
        if !pager.isScrolling, photoCount > 0 { onPageSettled?(pager.centerPageIndex) }
    }

    /// The provider has something new for photo `index`.
    /// The caption shown under the photo ("" for none).
    public var captionText: String { caption.text }

    /// The provider has a caption for photo `index` now (read from its file).
    public func captionDidChange(at index: Int) {
        guard index == centerPageIndex else { return }
        caption.text = showsCaptions ? (provider?.caption(at: index) ?? "") : ""
        layoutChrome()
    }

    public func photoDidChange(at index: Int) {
        guard let page = page(at: index), let provider else { return }
        page.show(provider.photoContent(at: index))
    }

    /// A load for photo `index` arrived: `content` is what it brought (the page keeps whichever
    /// is better, so a late thumbnail never replaces a screen image).
    public func photoDidChange(at index: Int, to content: PhotoContent) {
        page(at: index)?.show(content)
    }

    // MARK: Pages

    private func makePage(_ index: Int, reusing reused: View?) -> View {
        let page = (reused as? PhotoPageView) ?? {
            let page = PhotoPageView()
            page.font = font
            page.onNeededQualityChange = { [weak self] _ in self?.updateDemands() }
            page.onSingleTap = { [weak self] page in self?.onTapPage?(page.photoIndex) }
            page.onHold = { [weak self] page, held in self?.onHoldPage?(page.photoIndex, held) }
            return page
        }()
        page.frame = pager.frame(ofPage: index)
        page.prepare(for: index)
        page.motionBarHeight = metrics.pixels(4)
        page.holdRecognizer.isEnabled = pageHasMotion(index)
        page.singleTapRecognizer.isEnabled = pageTakesTaps(index)
        page.showsSpinner = index == pager.centerPageIndex
        if let provider { page.show(provider.photoContent(at: index)) }
        return page
    }

    private func centerPageChanged(_ index: Int) {
        if let last = lastCenterIndex, index != last { pagingDirection = index > last ? 1 : -1 }
        lastCenterIndex = index
        for i in pager.livePageIndices {
            page(at: i)?.showsSpinner = i == index
        }
        indicator.currentPage = index
        caption.text = showsCaptions ? (provider?.caption(at: index) ?? "") : ""
        layoutChrome()
        filmstripFollow(index)
        showChrome()
        updateDemands()
        onPageChange?(index)
    }

    /// Pages that scrolled away go back to fitting their photo (NYTPhotoViewer #143).
    private func scrollEnded() {
        for i in pager.livePageIndices where i != pager.centerPageIndex {
            page(at: i)?.resetZoom()
        }
        if photoCount > 0 { onPageSettled?(pager.centerPageIndex) }
    }

    private func updateDemands() {
        guard let provider, photoCount > 0 else { return }
        let center = pager.centerPageIndex
        var demands: [Int: PhotoDemand] = [:]
        // At the first or last photo the only way on is back: preload that way.
        let ahead = (0..<photoCount).contains(center + pagingDirection) ? pagingDirection : -pagingDirection
        let reaches = ahead > 0 ? (Self.preloadBehind, Self.preloadAhead) : (Self.preloadAhead, Self.preloadBehind)
        for index in max(0, center - reaches.0)...min(photoCount - 1, center + reaches.1) {
            let distance = Double(abs(index - center))
            if index == center, let page = centerPage {
                demands[index] = PhotoDemand(quality: page.neededQuality, distance: 0, zoomScale: page.zoomScale)
            } else if preloadsNeighbours {
                demands[index] = PhotoDemand(quality: .screen, distance: distance)
            }
        }
        guard demands != lastDemands else { return }
        lastDemands = demands
        provider.updateWantedPhotos(demands)
    }

    // MARK: Chrome

    private func applyFont() {
        indicator.font = font
        caption.font = font
        backButton.font = font
        filmstrip.font = font
        for i in pager.livePageIndices { page(at: i)?.font = font }
        layoutChrome()
    }

    private func applyMetrics() {
        indicator.metrics = metrics
        caption.metrics = metrics
        backButton.metrics = metrics
        filmstrip.reorderDensity = metrics.scale
        for i in pager.livePageIndices { page(at: i)?.motionBarHeight = metrics.pixels(4) }
        layoutChrome()
    }

    /// Bottom up: the filmstrip along the bottom edge, the indicator above it, the caption
    /// above that; the back button in the top left corner.
    /// The most of the screen the caption, page dots and filmstrip may cover together, so a
    /// 320x240 panel still shows mostly photo.
    static let chromeAreaBudget = 0.25
    /// On a short screen the filmstrip takes at most this much of the height.
    static let compactFilmstripFraction = 0.16

    /// Whether the screen is too small for the filmstrip and the dots within the budget: then
    /// the dots go (the filmstrip's ring marks the photo) and the strip is lower.
    public private(set) var isChromeCompact = false
    /// The narrowest caption worth showing; narrower, the budget hides it.
    static let minimumCaptionWidth = 60.0

    private func layoutChrome() {
        let margin = metrics.pixels(8)
        let screenArea = bounds.width * bounds.height
        let budget = screenArea * Self.chromeAreaBudget
        var stripHeight = filmstripHeight
        let indicatorSize = indicator.preferredSize
        let captionSize = caption.preferredSize(minimumHeight: 0)
        let indicatorArea = indicatorSize.width * indicatorSize.height
        isChromeCompact = stripHeight > 0 && bounds.width * stripHeight + indicatorArea > budget
        if isChromeCompact {
            stripHeight = min(stripHeight, (bounds.height * Self.compactFilmstripFraction).rounded())
        }
        indicator.isHidden = isChromeCompact
        let stripFrame = Rect(x: 0, y: bounds.maxY - stripHeight, width: bounds.width, height: stripHeight)
        if filmstrip.frame != stripFrame {
            filmstrip.frame = stripFrame
            filmstrip.centerItem(centerPageIndex, animated: false)
        }
        indicator.frame = Rect(x: (bounds.midX - indicatorSize.width / 2).rounded(), y: filmstrip.frame.minY - indicatorSize.height - margin / 2,
                               width: indicatorSize.width, height: indicatorSize.height)
        let indicatorTop = isChromeCompact ? filmstrip.frame.minY - margin / 2 : indicator.frame.minY
        var captionWidth = min(bounds.width - 2 * metrics.pixels(20), captionSize.width)
        if captionSize.height > 0 {
            // What the budget leaves after the strip and the dots, as caption width.
            let left = budget - bounds.width * stripHeight - (isChromeCompact ? 0 : indicatorArea)
            let fitting = (left / captionSize.height).rounded(.down)
            if fitting < captionWidth { captionWidth = fitting >= Self.minimumCaptionWidth ? fitting : 0 }
        }
        caption.frame = Rect(x: (bounds.midX - captionWidth / 2).rounded(), y: indicatorTop - captionSize.height,
                             width: max(0, captionWidth), height: captionSize.height)
        let backSize = backButton.preferredSize(minimumHeight: metrics.pixels(44))
        backButton.frame = Rect(x: margin, y: margin, width: backSize.width, height: backSize.height)
    }

    /// Shows the indicator and caption, then fades them after a moment.
    public func showChrome() {
        chromeFade?.cancel()
        chromeFade = nil
        chromeTimer?.invalidate()
        setChromeAlpha(1)
        guard let scheduler = window?.scheduler else { return }
        chromeTimer = scheduler.schedule(after: Self.chromeVisibleDuration) { [weak self] in
            guard let self else { return }
            // A finger still on the indicator or the filmstrip (scrubbing, scrolling, carrying
            // a thumbnail) keeps the chrome: look again later.
            if self.isChromeInUse { self.showChrome(); return }
            guard let animator = self.window?.animator else { return }
            self.chromeFade = animator.animate(duration: Self.chromeFadeDuration, easing: .easeIn, update: { [weak self] p in
                self?.setChromeAlpha(1 - p)
            })
        }
    }

    private func setChromeAlpha(_ alpha: Double) {
        indicator.alpha = alpha
        caption.alpha = alpha
        filmstrip.alpha = alpha
        backButton.alpha = isPlayingClip ? alpha : 1
    }

    /// A clip plays on the centre page (the app says so). The "‹ Grid" button then fades with
    /// the rest of the chrome, as a phone hides its controls over a playing video, and a touch
    /// brings it back: nothing is drawn over the clip, so it can go on the display's video plane.
    public var isPlayingClip = false {
        didSet {
            guard isPlayingClip != oldValue else { return }
            if isPlayingClip { showChrome() } else { backButton.alpha = 1 }
        }
    }

    private var isChromeInUse: Bool {
        indicator.isTracking || isFilmstripInUse
    }

    public override func didMoveToWindow() {
        if window != nil { showChrome() } else { chromeTimer?.invalidate(); chromeFade?.cancel() }
    }

    public override func layoutSubviews() {
        if pager.frame.size != bounds.size { pager.frame = Rect(origin: pager.frame.origin, size: bounds.size) }
        layoutChrome()
    }

    /// Black where the pager does not cover the album (a swipe down slides it away).
    public override func draw(in context: DrawContext) {
        for band in bounds.subtracting(pager.frame) { context.fill(band, color: .black) }
    }

    /// Every pixel is painted: the bands above, the opaque pager over the rest.
    public override var isOpaque: Bool { true }

    // MARK: Input

    public override func handleKey(_ key: KeyEvent) -> Bool {
        switch key {
        case .left: setCenterPageIndex(centerPageIndex - 1, animated: true); return true
        case .right: setCenterPageIndex(centerPageIndex + 1, animated: true); return true
        case .escape: onClose?(); return true
        default: return false
        }
    }

    /// A mostly vertical, downward drag on a page at fit zoom, while the pages rest.
    private func swipeDownShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        guard let page = centerPage, page.isAtMinimumZoom, !page.isZooming, !pager.isScrolling else { return false }
        let moved = recognizer.touches.reduce(Point.zero) { $0 + ($1.location - $1.startLocation) }
        return moved.y > 0 && moved.y > abs(moved.x) * 1.5
    }

    private func handleSwipeDown() {
        let pan = swipeDownRecognizer
        switch pan.state {
        case .began, .changed:
            swipeReturn?.cancel()
            let dy = max(0, pan.translation(in: self).y)
            pager.transform = ViewTransform(translation: Point(x: 0, y: dy))
        case .ended:
            let dy = pan.translation(in: self).y
            if dy > Self.closeDistance || (dy > 20 && pan.velocity(in: self).y > Self.closeVelocity) {
                onClose?()
            } else {
                springBack()
            }
        case .cancelled:
            springBack()
        default:
            break
        }
    }

    private func springBack() {
        let start = pager.transform.translation.y
        guard start > 0, let animator = window?.animator else {
            pager.transform = .identity
            return
        }
        swipeReturn = animator.animate(duration: 0.2, easing: .easeOut, update: { [weak self] p in
            self?.pager.transform = ViewTransform(translation: Point(x: 0, y: start * (1 - p)))
        })
    }
}
