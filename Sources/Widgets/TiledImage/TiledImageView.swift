#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Graphics
import UI

/// A zoomable, pannable view of an image of any size, built from the tiles of a power-of-two
/// pyramid (ScrollViewSuite's TiledScrollView with PhotoScroller's placeholders).
///
/// - The zoom view's bounds are the image at the current `resolution` (imageSize · 2^r); the
///   scroll view's zoom scale says how that level is shown. When a zoom ends (and on a
///   non-animated `setZoomScale`), `ResolutionSnapper` re-bases the scale so on-screen tiles
///   stay between half and full size; the picture does not move.
/// - Only tiles that intersect the visible rectangle exist (recycled views). During a pinch the
///   level shown follows the live scale, so the count stays under `TileGrid.liveTileBound`.
/// - A tile still loading shows the nearest coarser loaded tile scaled up. The single tile of
///   the coarsest level is always wanted first, so there is never a blank hole. Before any tile
///   arrived, `showsBackdrop` lets a lower-resolution picture beneath show through (iOS photo
///   apps keep it under CATiledLayer's tiles); alone, the view shows a grey placeholder.
/// - Gestures: pinch around the fingers; double tap zooms in 2x at the point (stopping at 1:1
///   pixels on the way), at the maximum back to fit (`DoubleTapZoom`, as every album page); a
///   two-finger tap zooms out 2x.
public final class TiledImageView: View, ScrollViewDelegate {
    public let scrollView: ScrollView = TilingScrollView()
    /// Wanted tiles with this priority or more are stand-ins (coarser tiles shown while finer
    /// ones load), not on screen themselves: a provider need not keep them.
    public static let standInPriority = 1_000_000.0
    /// Screen pixels per image pixel the user may zoom to (beyond 1:1 the finest tiles enlarge).
    public var maximumScale = PhotoZoomLimits.maximumPixelScale {
        didSet { configureLimits(keepFit: false) }
    }
    /// Called on a single tap (after the double tap had its chance): a viewer closes on it.
    public var onSingleTap: (() -> Void)?
    /// Set when a view beneath shows this image fitted to the same bounds (a photo page's
    /// thumbnail, then its screen-sized decode): while the image is at fit, tiles with nothing
    /// loaded draw nothing, so that picture shows until they cover it. The view is then clear
    /// over the image and black around it (a zoom below fit must not uncover the picture beneath).
    public var showsBackdrop = false {
        didSet {
            guard showsBackdrop != oldValue else { return }
            setNeedsDisplay()
            layoutTiles()
        }
    }

    /// Whether the picture beneath (see `showsBackdrop`) is already as sharp as tiles at fit
    /// would be (a photo page's screen-sized decode). Then, at fit, only the one-tile level is
    /// loaded (the stand-in a zoom starts from), not a screenful of tiles that would duplicate
    /// that picture in memory. Asked at each tile layout.
    public var isBackdropSharp: (() -> Bool)?

    public var provider: TiledImageProvider? {
        didSet {
            oldValue?.onTileLoaded = nil
            provider?.onTileLoaded = { [weak self] id in self?.tileDidLoad(id) }
            reloadData()
        }
    }

    public private(set) var resolution = 0
    public private(set) var minimumResolution = 0
    public let maximumResolution = 0
    /// The resolution of the tiles on screen now (differs from `resolution` mid-pinch).
    public private(set) var displayedResolution = 0

    let container = View()
    private var grid = TileGrid(imageWidth: 1, imageHeight: 1, tileSize: 256)
    private var tiles: [TileID: TileView] = [:]
    private var reusable: [TileView] = []
    private var lastWanted: [TileID: Double] = [:]
    private var isConfigured = false
    private let doubleTap = TapGestureRecognizer(taps: 2)
    private let twoFingerTap = TapGestureRecognizer(taps: 1, touches: 2)
    private let singleTap = TapGestureRecognizer(taps: 1)

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        scrollView.frame = bounds
        scrollView.delegate = self
        scrollView.decelerationRate = DecelerationCurve.fastRate
        scrollView.addSubview(container)
        scrollView.viewForZooming = container
        (scrollView as! TilingScrollView).onLayout = { [weak self] in self?.layoutTiles() }
        scrollView.setZoomScaleHandler = { [weak self] view, scale, animated in
            view.performSetZoomScale(scale, animated: animated)
            if !animated { self?.updateResolution() }
        }
        addSubview(scrollView)
        doubleTap.addAction { [weak self] r in
            guard let self else { return }
            self.doubleTapped(at: r.location(in: self.container))
        }
        twoFingerTap.addAction { [weak self] r in
            guard let self else { return }
            self.zoomOut(around: r.location(in: self.container))
        }
        singleTap.addAction { [weak self] _ in self?.onSingleTap?() }
        singleTap.require(toFail: doubleTap)
        scrollView.addGestureRecognizer(doubleTap)
        scrollView.addGestureRecognizer(twoFingerTap)
        scrollView.addGestureRecognizer(singleTap)
    }

    // MARK: Public state

    /// Screen pixels per full-resolution image pixel.
    public var effectiveScale: Double { scrollView.zoomScale * Self.power(resolution) }
    /// The scale at which the whole image fits (never above `maximumScale`).
    public var fitScale: Double {
        guard let provider, !bounds.isEmpty else { return 1 }
        return min(provider.imageSize.scaleToFit(bounds.size), maximumScale)
    }
    public var liveTileCount: Int { tiles.count }
    public var liveTileIDs: Set<TileID> { Set(tiles.keys) }
    /// Tiles on screen still waiting for their own bitmap (placeholders showing).
    public var missingTileCount: Int {
        guard let provider else { return tiles.count }
        return tiles.keys.filter { provider.tile($0) == nil }.count
    }
    /// Where the image is now, in this view's coordinates.
    public var imageFrame: Rect { container.convert(container.bounds, to: self) }
    /// Where the image is at fit: scaled to `fitScale` and centred, as a photo page shows it.
    public var fitFrame: Rect {
        guard let provider else { return .zero }
        let size = provider.imageSize * fitScale
        return Rect(x: max(0, (bounds.width - size.width) / 2), y: max(0, (bounds.height - size.height) / 2),
                    width: size.width, height: size.height)
    }
    /// Whether the image sits exactly where a backdrop fitted to the bounds shows it (within a
    /// quarter of a pixel: no visible jump when the tiles replace it).
    public var isAtFitFrame: Bool {
        let a = imageFrame, b = fitFrame
        let e = 0.25
        return abs(a.minX - b.minX) < e && abs(a.minY - b.minY) < e && abs(a.maxX - b.maxX) < e && abs(a.maxY - b.maxY) < e
    }

    /// The image point (full-resolution pixels) shown at `point` of this view.
    public func imagePoint(at point: Point) -> Point {
        container.convert(point, from: self) * (1 / Self.power(resolution))
    }

    /// Zooms to `scale` screen pixels per image pixel keeping the view's centre.
    public func setScale(_ scale: Double, animated: Bool) {
        layoutIfNeeded()
        scrollView.setZoomScale(scale / Self.power(resolution), animated: animated)
    }

    /// Zooms so the image point `point` sits at the view's centre at `scale`.
    public func zoom(toScale scale: Double, centeredAt point: Point, animated: Bool) {
        layoutIfNeeded()   // a view added a moment ago has no zoom limits yet
        let s = min(max(scale, fitScale), maximumScale)
        let containerScale = s / Self.power(resolution)
        let size = Size(width: scrollView.bounds.width / containerScale, height: scrollView.bounds.height / containerScale)
        let c = point * Self.power(resolution)
        scrollView.zoom(to: Rect(x: c.x - size.width / 2, y: c.y - size.height / 2, width: size.width, height: size.height),
                        animated: animated)
        if !animated || window == nil { updateResolution() }
    }

    /// Forgets every tile and starts again at fit (a new provider).
    public func reloadData() {
        for (_, tile) in tiles { recycle(tile) }
        tiles.removeAll()
        lastWanted = [:]
        isConfigured = false
        setNeedsLayout()
        layoutIfNeeded()
    }

    /// The provider's tiles changed (another source of the same image): ask again for what is
    /// on screen and redraw it, keeping the zoom and position.
    public func refreshTiles() {
        lastWanted = [:]
        for (_, tile) in tiles { tile.setNeedsDisplay() }
        layoutTiles()
    }

    // MARK: Drawing

    /// Black around the image only: the tiles paint the image (a full background beneath them
    /// would be one more full-screen fill per frame), or with a backdrop the picture beneath shows.
    public override func draw(in context: DrawContext) {
        let image = imageFrame.intersection(bounds)
        guard !image.isEmpty else { context.fill(bounds, color: .black); return }
        let b = bounds
        context.fill(Rect(x: b.minX, y: b.minY, width: b.width, height: image.minY - b.minY), color: .black)
        context.fill(Rect(x: b.minX, y: image.maxY, width: b.width, height: b.maxY - image.maxY), color: .black)
        context.fill(Rect(x: b.minX, y: image.minY, width: image.minX - b.minX, height: image.height), color: .black)
        context.fill(Rect(x: image.maxX, y: image.minY, width: b.maxX - image.maxX, height: image.height), color: .black)
    }

    /// Without a backdrop every pixel is painted: black around the image, tiles (or their
    /// placeholders) over it.
    public override var isOpaque: Bool { !showsBackdrop && isConfigured }

    // MARK: Layout

    public override func layoutSubviews() {
        let sizeChanged = scrollView.frame.size != bounds.size
        let wasAtFit = effectiveScale <= fitScaleFor(size: scrollView.bounds.size) + 1e-9
        scrollView.frame = Rect(size: bounds.size)
        if !isConfigured { configure() } else if sizeChanged { configureLimits(keepFit: wasAtFit) }
    }

    private func fitScaleFor(size: Size) -> Double {
        guard let provider, !size.isEmpty else { return 1 }
        return min(provider.imageSize.scaleToFit(size), maximumScale)
    }

    /// First show of an image: resolution and zoom for fit.
    private func configure() {
        guard let provider, !bounds.isEmpty, !provider.imageSize.isEmpty else { return }
        isConfigured = true
        grid = TileGrid(imageWidth: Int(provider.imageSize.width), imageHeight: Int(provider.imageSize.height),
                        tileSize: provider.tileSize)
        // Down to the level that fits in one tile: the fallback under every other tile.
        minimumResolution = min(0, max(provider.minimumResolution,
                                       min(Int(log2(fitScale).rounded(.down)), grid.singleTileResolution)))
        let fit = fitScale
        resolution = TileGrid.displayResolution(forScale: fit, minimum: minimumResolution, maximum: maximumResolution)
        setContainerSize()
        scrollView.minimumZoomScale = fit / Self.power(resolution)
        scrollView.maximumZoomScale = maximumScale / Self.power(resolution)
        scrollView.setZoomScaleInPlace(scrollView.minimumZoomScale)
        scrollView.contentOffset = scrollView.clampedOffset(.zero)
        scrollView.setNeedsLayout()
    }

    /// New bounds or a new maximum: recompute the limits; an image shown at fit stays at fit.
    private func configureLimits(keepFit: Bool) {
        guard isConfigured else { setNeedsLayout(); return }
        let p = Self.power(resolution)
        scrollView.minimumZoomScale = fitScale / p
        scrollView.maximumZoomScale = maximumScale / p
        let z = keepFit ? scrollView.minimumZoomScale
            : min(max(scrollView.zoomScale, scrollView.minimumZoomScale), scrollView.maximumZoomScale)
        scrollView.setZoomScaleInPlace(z)
        scrollView.contentOffset = scrollView.clampedOffset(scrollView.contentOffset)
        updateResolution()
    }

    private func setContainerSize() {
        guard let provider else { return }
        container.bounds = Rect(size: provider.imageSize * Self.power(resolution))
    }

    // MARK: Resolution snapping

    /// Re-bases the zoom onto the level that shows near 1:1 (see `ResolutionSnapper`).
    public func updateResolution() {
        guard isConfigured else { return }
        var snapper = ResolutionSnapper(resolution: resolution, minimumResolution: minimumResolution,
                                        maximumResolution: maximumResolution, zoomScale: scrollView.zoomScale,
                                        minimumZoomScale: scrollView.minimumZoomScale,
                                        maximumZoomScale: scrollView.maximumZoomScale)
        guard snapper.update() != 0 else { return }
        resolution = snapper.resolution
        scrollView.minimumZoomScale = snapper.minimumZoomScale
        scrollView.maximumZoomScale = snapper.maximumZoomScale
        // Same on-screen size and offset: only the units of the zoom view change.
        setContainerSize()
        scrollView.setZoomScaleInPlace(snapper.zoomScale)
        layoutTiles()
    }

    public func scrollViewWillBeginZooming(_ scrollView: ScrollView) {
        setTileQuality(.nearest)
    }

    public func scrollViewDidEndZooming(_ scrollView: ScrollView, atScale scale: Double) {
        setTileQuality(.bilinear)
        updateResolution()
    }

    /// The filter live tiles draw with (new tiles pick it up in `layoutTiles`).
    public private(set) var tileQuality = ScalingQuality.bilinear

    private func setTileQuality(_ quality: ScalingQuality) {
        tileQuality = quality
        for tile in tiles.values { tile.quality = quality }
    }

    // MARK: Tiles

    /// Builds and recycles tile views for the visible rectangle and tells the provider what is
    /// wanted, nearest the centre first.
    func layoutTiles() {
        guard isConfigured, let provider else { return }
        let visible = container.convert(scrollView.bounds, from: scrollView).intersection(container.bounds)
        // Mid-pinch (nearest sampling) the tiles come from one level coarser and are enlarged
        // 1-2x instead of shrunk 0.5-1x: a frame reads a quarter of the pixels (3.5 → under 1 ms
        // at 1920x1080) and fewer tiles load; the sharp level returns when the fingers lift.
        let liveScale = tileQuality == .nearest ? effectiveScale / 2 : effectiveScale
        let shown = TileGrid.displayResolution(forScale: liveScale, minimum: minimumResolution, maximum: maximumResolution)
        displayedResolution = shown
        // Container units are level-`resolution` pixels; the shown level's pixels are k of them.
        let k = Self.power(resolution - shown)
        let levelVisible = Rect(x: visible.minX / k, y: visible.minY / k, width: visible.width / k, height: visible.height / k)
        let backdropSuffices = showsBackdrop && isAtFitFrame && (isBackdropSharp?() ?? false)
        let wanted = visible.isEmpty || backdropSuffices ? [] : grid.tiles(intersecting: levelVisible, resolution: shown)
        let wantedSet = Set(wanted)
        for (id, tile) in tiles where !wantedSet.contains(id) {
            recycle(tile)
            tiles[id] = nil
        }
        let coarsest = max(minimumResolution, grid.singleTileResolution)
        // The backdrop shows the image at fit only: elsewhere an empty tile would show it misplaced.
        let placeholders = !(showsBackdrop && isAtFitFrame)
        let centre = visible.center
        var priorities: [TileID: Double] = [:]
        for id in wanted {
            let rect = grid.rect(of: id)
            let frame = Rect(x: Double(rect.x) * k, y: Double(rect.y) * k, width: Double(rect.width) * k, height: Double(rect.height) * k)
            let tile: TileView
            if let existing = tiles[id] {
                tile = existing
            } else {
                tile = reusable.popLast() ?? TileView()
                tile.quality = tileQuality
                tile.isUserInteractionEnabled = false
                tile.id = id
                tile.levelRect = rect
                tile.provider = provider
                tile.coarsest = min(coarsest, id.resolution)
                tiles[id] = tile
                container.addSubview(tile)
                tile.setNeedsDisplay()
            }
            if tile.frame != frame { tile.frame = frame }
            tile.drawsPlaceholder = placeholders
            priorities[id] = frame.center.distance(to: centre) * scrollView.zoomScale
            // The parent covers this tile while it loads: wanted just after the visible tiles.
            if id.resolution > coarsest {
                let parent = id.ancestor(levels: 1)
                priorities[parent] = min(priorities[parent] ?? .infinity, Self.standInPriority + (priorities[id] ?? 0))
            }
        }
        // The whole image in one tile first: the last fallback.
        for id in grid.tiles(intersecting: Rect(x: 0, y: 0, width: 1e12, height: 1e12), resolution: coarsest) {
            priorities[id] = -1
        }
        if priorities != lastWanted {
            lastWanted = priorities
            provider.updateWantedTiles(priorities)
        }
    }

    private func recycle(_ tile: TileView) {
        tile.removeFromSuperview()
        reusable.append(tile)
    }

    private func tileDidLoad(_ id: TileID) {
        for (_, tile) in tiles where tile.depends(on: id) { tile.setNeedsDisplay() }
    }

    // MARK: Gestures

    private func doubleTapped(at containerPoint: Point) {
        let point = containerPoint * (1 / Self.power(resolution))
        let target = DoubleTapZoom.target(from: effectiveScale, fit: fitScale, maximum: maximumScale)
        zoom(toScale: target, centeredAt: point, animated: true)
    }

    private func zoomOut(around containerPoint: Point) {
        zoom(toScale: max(effectiveScale / 2, fitScale), centeredAt: containerPoint * (1 / Self.power(resolution)), animated: true)
    }

    static func power(_ n: Int) -> Double { ResolutionSnapper.power(n) }
}

/// The scroll view under a tiled image: lays the tiles out whenever it lays itself out (every
/// scroll offset or zoom change).
final class TilingScrollView: ScrollView {
    var onLayout: (() -> Void)?

    override func layoutSubviews() {
        super.layoutSubviews()
        onLayout?()
    }
}
