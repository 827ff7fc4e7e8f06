import Graphics
import UI

/// One page of the album: a zooming scroll view around one photo (Nimbus' NIPhotoScrollView).
///
/// Zoom is screen pixels per original photo pixel (`PhotoZoomLimits`): the minimum fits the
/// photo, the photo stays centred while smaller than the page. Double tap zooms in 2x at the tap
/// (via 1:1, up to the maximum) or, at the maximum, back out to fit (`DoubleTapZoom`). Content only improves: `show(_:)`
/// ignores anything not better than what is shown.
public final class PhotoPageView: ScrollView, ScrollViewDelegate {
    public private(set) var photoIndex = -1
    public private(set) var content = PhotoContent.empty
    /// Shows the spinner while loading (the album sets it for the centre page only).
    public var showsSpinner = false {
        didSet { updateSpinner() }
    }
    /// Told when `neededQuality` changed (zoomed past the screen-sized image's resolution).
    public var onNeededQualityChange: ((PhotoPageView) -> Void)?
    /// A single tap (after a double tap could not follow): a clip pauses or plays.
    public var onSingleTap: ((PhotoPageView) -> Void)?
    /// A finger held still (true) and lifted (false): a Live Photo's motion plays meanwhile.
    public var onHold: ((PhotoPageView, Bool) -> Void)?
    /// The height of a playing clip's progress bar (the album sets it from its metrics).
    public var motionBarHeight = 4.0 {
        didSet { setNeedsLayout() }
    }

    let contentView = PhotoContentView()
    let spinner = SpinnerView(frame: Rect(x: 0, y: 0, width: 56, height: 56))
    public let doubleTapRecognizer = TapGestureRecognizer(taps: 2)
    public let singleTapRecognizer = TapGestureRecognizer(taps: 1)
    public let holdRecognizer = LongPressGestureRecognizer()
    let motionBar = ClipProgressView()
    private var limits: PhotoZoomLimits?
    private var lastNeededQuality = PhotoQuality.screen

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        delegate = self
        decelerationRate = DecelerationCurve.fastRate
        showsHorizontalScrollIndicator = false
        showsVerticalScrollIndicator = false
        contentView.isUserInteractionEnabled = false
        addSubview(contentView)
        viewForZooming = contentView
        addSubview(spinner)
        doubleTapRecognizer.addAction { [weak self] recognizer in
            guard let self, recognizer.state == .recognized else { return }
            self.handleDoubleTap(at: recognizer.location(in: self.contentView))
        }
        addGestureRecognizer(doubleTapRecognizer)
        singleTapRecognizer.require(toFail: doubleTapRecognizer)
        singleTapRecognizer.addAction { [weak self] recognizer in
            guard let self, recognizer.state == .recognized else { return }
            self.onSingleTap?(self)
        }
        // Only where a tap does something (the album enables it on a clip's page): a single tap
        // waiting for a double tap to fail would hold the touches a tiled photo's own double tap
        // needs (the small board's zoom to 1:1 stopped working with it on every page).
        singleTapRecognizer.isEnabled = false
        addGestureRecognizer(singleTapRecognizer)
        holdRecognizer.addAction { [weak self] recognizer in
            guard let self else { return }
            switch recognizer.state {
            case .began: self.onHold?(self, true)
            case .ended, .cancelled, .failed: self.onHold?(self, false)
            default: break
            }
        }
        // Only where a hold plays something (the album enables it on a Live Photo's page): on
        // any other page a finger resting before a swipe must still page.
        holdRecognizer.isEnabled = false
        addGestureRecognizer(holdRecognizer)
        motionBar.isHidden = true
        motionBar.isUserInteractionEnabled = false
        addSubview(motionBar)
        // A zoomed photo dragged on past its left or right edge leaves the drag to the album,
        // which pages (as photo viewers do), instead of rubber-banding.
        let scrolls = panGestureRecognizer.shouldBegin
        panGestureRecognizer.shouldBegin = { [weak self] recognizer in
            guard let self else { return false }
            if self.isAtHorizontalEdge(movingBy: recognizer.touches) { return false }
            return scrolls?(recognizer) ?? true
        }
    }

    private func isAtHorizontalEdge(movingBy touches: [Touch]) -> Bool {
        let moved = touches.reduce(Point.zero) { $0 + ($1.location - $1.startLocation) }
        guard abs(moved.x) > abs(moved.y) else { return false }
        let slack = 0.5
        if moved.x > 0 { return contentOffset.x <= minimumContentOffset.x + slack }
        return contentOffset.x >= maximumContentOffset.x - slack
    }

    var font: Font? {
        get { contentView.font }
        set { contentView.font = newValue }
    }

    /// The bitmap on screen now (nil while nothing arrived or when broken).
    public var bitmap: Bitmap? { content.bitmap }
    /// True when the best this page needs is on screen, or the photo is broken.
    public var isLoaded: Bool { content.quality >= neededQuality || content.failure != nil }
    public var isAtMinimumZoom: Bool { zoomScale <= minimumZoomScale * 1.0001 }

    // MARK: Content

    /// Makes the page show photo `index` from scratch (a recycled page).
    func prepare(for index: Int) {
        stopMotion()
        motionProgress = nil
        photoIndex = index
        content = .empty
        contentView.bitmap = nil
        contentView.motionFrame = nil
        contentView.isBroken = false
        limits = nil
        lastNeededQuality = .screen
        installContentSize(nil)
        updateSpinner()
    }

    /// Shows `newContent` if it is better than what is shown (never a downgrade); a failure
    /// shows the broken tile only when there is no bitmap at all. Returns whether anything changed.
    @discardableResult
    public func show(_ newContent: PhotoContent) -> Bool {
        var changed = false
        if newContent.bitmap != nil, newContent.quality > content.quality {
            let sizeChanged = (newContent.originalSize ?? content.originalSize) != content.originalSize || content.bitmap == nil
            content.bitmap = newContent.bitmap
            content.quality = newContent.quality
            if let size = newContent.originalSize { content.originalSize = size }
            contentView.bitmap = newContent.bitmap
            if sizeChanged { installContentSize(content.originalSize) }
            changed = true
        } else if content.originalSize == nil, let size = newContent.originalSize, content.bitmap != nil {
            content.originalSize = size
            installContentSize(size)
            changed = true
        }
        if let failure = newContent.failure, content.failure == nil {
            content.failure = failure
            contentView.isBroken = content.bitmap == nil
            changed = true
        }
        updateSpinner()
        return changed
    }

    /// Sizes the content view: the original's size when known (zoomable), otherwise the bitmap
    /// fitted to the page (no zoom until the size is known). Starts at the minimum zoom.
    private func installContentSize(_ original: Size?) {
        let viewport = bounds.size
        let size: Size
        if let original, !original.isEmpty {
            size = original
            limits = PhotoZoomLimits(photo: original, viewport: viewport)
        } else if let bitmap = content.bitmap, !viewport.isEmpty {
            size = bitmap.size * bitmap.size.scaleToFit(viewport)
            limits = nil
        } else {
            size = viewport.isEmpty ? Size(width: 1, height: 1) : viewport
            limits = nil
        }
        contentView.bounds = Rect(size: size)
        minimumZoomScale = limits?.minimum ?? 1
        maximumZoomScale = limits?.maximum ?? 1
        setZoomScaleInPlace(minimumZoomScale)
        contentOffset = minimumContentOffset
        contentView.setNeedsDisplay()
    }

    // MARK: Motion (a playing clip, a Live Photo's motion)

    /// Shows a clip's frame in place of the photo (nil: the photo again). The frame is drawn where
    /// the photo is, so only that rectangle is repainted; the content stays as loaded.
    public func showMotionFrame(_ frame: VideoFrame?) {
        contentView.motionFrame = frame
    }

    /// The clip's frame drawn now in place of the photo, while one plays.
    public var displayedMotionFrame: VideoFrame? { contentView.motionFrame }

    /// How far the clip has played, 0...1; nil hides the bar.
    public var motionProgress: Double? {
        didSet {
            guard motionProgress != oldValue else { return }
            motionBar.isHidden = motionProgress == nil
            if let motionProgress { motionBar.fraction = motionProgress }
            if (motionProgress == nil) != (oldValue == nil) { setNeedsLayout() }
        }
    }

    /// Where the bar goes: along the bottom of the photo as far as it is on the page.
    private func layoutMotionBar() {
        let photo = contentView.frame
        let left = max(photo.minX, bounds.minX), right = min(photo.maxX, bounds.maxX)
        let bottom = min(photo.maxY, bounds.maxY)
        let frame = Rect(x: left, y: bottom - motionBarHeight, width: max(0, right - left), height: motionBarHeight)
        if motionBar.frame != frame { motionBar.frame = frame }
    }

    // MARK: Zoom

    /// Back to fitting the photo (the page was scrolled away).
    public func resetZoom() {
        guard !isAtMinimumZoom || isMoving else { return }
        stopMotion()
        setZoomScaleInPlace(minimumZoomScale)
        contentOffset = minimumContentOffset
        contentView.setNeedsDisplay()
        checkNeededQuality()
    }

    /// The same steps on every photo (`DoubleTapZoom`): doubling at the tap, via 1:1, to the
    /// maximum, then back to fit.
    private func handleDoubleTap(at point: Point) {
        guard limits != nil else { return }
        let target = DoubleTapZoom.target(from: zoomScale, fit: minimumZoomScale, maximum: maximumZoomScale)
        if target <= minimumZoomScale + DoubleTapZoom.tolerance {
            setZoomScale(minimumZoomScale, animated: true)
        } else {
            let size = Size(width: bounds.width / target, height: bounds.height / target)
            zoom(to: Rect(x: point.x - size.width / 2, y: point.y - size.height / 2, width: size.width, height: size.height),
                 animated: true)
        }
    }

    /// The quality the current zoom needs: the full image once zoomed past what a screen-sized
    /// decode can show sharply.
    public var neededQuality: PhotoQuality {
        guard let original = content.originalSize else { return .screen }
        return PhotoZoomLimits.needsFullResolution(photo: original, viewport: bounds.size, zoomScale: zoomScale) ? .full : .screen
    }

    private func checkNeededQuality() {
        let needed = neededQuality
        guard needed != lastNeededQuality else { return }
        lastNeededQuality = needed
        updateSpinner()
        onNeededQualityChange?(self)
    }

    public func scrollViewDidZoom(_ scrollView: ScrollView) {
        checkNeededQuality()
    }

    public func scrollViewDidEndZooming(_ scrollView: ScrollView, atScale scale: Double) {
        checkNeededQuality()
    }

    // MARK: Layout

    public override func layoutSubviews() {
        super.layoutSubviews()
        let viewport = bounds.size
        if let original = content.originalSize, PhotoZoomLimits(photo: original, viewport: viewport) != limits {
            // A new page size (rotation): keep fitting if it fitted, else stay within the limits.
            let wasAtMinimum = isAtMinimumZoom
            let new = PhotoZoomLimits(photo: original, viewport: viewport)
            limits = new
            minimumZoomScale = new.minimum
            maximumZoomScale = new.maximum
            let scale = wasAtMinimum ? new.minimum : min(max(zoomScale, new.minimum), new.maximum)
            setZoomScaleInPlace(scale)
            contentOffset = clampedOffset(contentOffset)
        } else if content.originalSize == nil, contentView.bounds.size != fallbackSize(viewport) {
            installContentSize(nil)
        }
        if !motionBar.isHidden { layoutMotionBar() }
        spinner.frame = Rect(x: bounds.midX - spinner.bounds.width / 2, y: bounds.midY - spinner.bounds.height / 2,
                             width: spinner.bounds.width, height: spinner.bounds.height)
    }

    private func fallbackSize(_ viewport: Size) -> Size {
        if let bitmap = content.bitmap, !viewport.isEmpty { return bitmap.size * bitmap.size.scaleToFit(viewport) }
        return viewport.isEmpty ? Size(width: 1, height: 1) : viewport
    }

    private func updateSpinner() {
        let loading = content.failure == nil && content.quality < neededQuality
        spinner.isSpinning = showsSpinner && loading
    }
}
