import Graphics
import UI

/// Where the album is: a row of round dots for a few photos, "12 / 340" for many (or a thin
/// progress bar when no font could be loaded), on a dark translucent rounded pill with a soft
/// shadow so it reads on bright and dark photos alike.
///
/// It pages like UIPageControl (and Nimbus' album, which pages on it): a tap left of the
/// current dot goes back one page, right of it forward one; a finger dragged along it scrubs,
/// the page following the dot (or, with the counter, the position along the pill) under it.
/// The touch area is the whole view, at least 44 points tall, larger than the pill it draws.
public final class PageIndicatorView: View {
    /// Up to this many pages get dots.
    public static let maximumDots = 12
    /// Sizes in points (see `metrics`).
    static let dot = 8.0
    static let dotGap = 10.0
    static let touchHeight = 44.0
    /// A finger that moves this far (points) along the indicator scrubs instead of tapping.
    static let scrubThreshold = 8.0
    static let pillColor = Color(rgb: 0x000000, alpha: 150)
    static let currentDotColor = Color.white
    /// Half-transparent white: over the pill it is mid grey on a black photo and light grey on
    /// a white one, always far from the pill's own colour (UIPageControl's inactive dots are
    /// the active colour at reduced opacity too).
    static let otherDotColor = Color(rgb: 0xFFFFFF, alpha: 125)

    public var pageCount = 0 {
        didSet { if pageCount != oldValue { setNeedsDisplay() } }
    }
    public var currentPage = 0 {
        didSet { if currentPage != oldValue { setNeedsDisplay() } }
    }
    public var font: Font? {
        didSet { setNeedsDisplay() }
    }
    public var metrics = ChromeMetrics() {
        didSet { if metrics != oldValue { setNeedsDisplay() } }
    }
    /// The user tapped or scrubbed to `page`; `animated` for a tap (one page), not for a scrub.
    public var onSelectPage: ((_ page: Int, _ animated: Bool) -> Void)?
    /// True while a finger is on the indicator (the album keeps it showing meanwhile).
    public private(set) var isTracking = false
    private var isScrubbing = false

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        isExclusiveTouch = true
    }

    public var usesDots: Bool { pageCount <= Self.maximumDots }

    /// "12 / 340" (1-based, as people count).
    public var text: String { "\(currentPage + 1) / \(pageCount)" }

    private var dotDiameter: Double { metrics.pixels(Self.dot) }
    private var dotPitch: Double { metrics.pixels(Self.dot + Self.dotGap) }

    /// The pill's size.
    public var pillSize: Size {
        if usesDots {
            let gap = metrics.pixels(Self.dotGap)
            return Size(width: Double(pageCount) * dotPitch + gap, height: dotDiameter + 2 * gap)
        }
        guard let font else { return Size(width: metrics.pixels(200), height: metrics.pixels(24)) }
        return Size(width: font.width(of: "\(pageCount) / \(pageCount)") + metrics.pixels(32),
                    height: font.lineHeight + metrics.pixels(12))
    }

    /// The size the indicator wants: the pill with room around it to touch.
    public var preferredSize: Size {
        let pill = pillSize
        // The shadow (3 points around, 1 down) stays inside the bounds.
        return Size(width: pill.width + 2 * metrics.pixels(12),
                    height: max(pill.height + 2 * metrics.pixels(4), metrics.pixels(Self.touchHeight)))
    }

    /// The pill, centred in the bounds.
    public var pillFrame: Rect {
        let size = pillSize
        return Rect(x: (bounds.midX - size.width / 2).rounded(), y: (bounds.midY - size.height / 2).rounded(),
                    width: size.width, height: size.height)
    }

    /// The square dot `index` is drawn in (dots mode).
    public func dotFrame(_ index: Int) -> Rect {
        let pill = pillFrame, d = dotDiameter
        return Rect(x: pill.minX + metrics.pixels(Self.dotGap) + Double(index) * dotPitch,
                    y: (pill.midY - d / 2).rounded(), width: d, height: d)
    }

    /// The page a finger at `x` (own coordinates) points at: the nearest dot, or the position
    /// along the pill for the counter.
    public func page(atX x: Double) -> Int {
        guard pageCount > 0 else { return 0 }
        let pill = pillFrame
        let index: Int
        if usesDots {
            index = Int(((x - dotFrame(0).midX) / dotPitch).rounded())
        } else {
            index = Int(((x - pill.minX) / max(1, pill.width) * Double(pageCount)).rounded(.down))
        }
        return min(pageCount - 1, max(0, index))
    }

    // MARK: Drawing

    private var cache = DrawingCache()

    /// What the drawing depends on besides the size.
    private struct Look: Hashable {
        var pageCount: Int, currentPage: Int, metrics: ChromeMetrics, font: ObjectIdentifier?, size: Size
    }

    public override func draw(in context: DrawContext) {
        guard pageCount > 1 else { return }
        let look = Look(pageCount: pageCount, currentPage: currentPage, metrics: metrics,
                        font: font.map(ObjectIdentifier.init), size: bounds.size)
        cache.draw(in: context, bounds: bounds, key: look) { drawContent(in: $0) }
    }

    private func drawContent(in context: DrawContext) {
        let pill = pillFrame
        let radius = pill.height / 2
        context.fillShadow(of: pill, radius: radius, offset: Point(x: 0, y: metrics.pixels(1)),
                           spread: metrics.pixels(3), color: Color(rgb: 0, alpha: 60))
        context.fillRoundedRect(pill, radius: radius, color: Self.pillColor)
        if usesDots {
            for i in 0..<pageCount {
                context.fillEllipse(in: dotFrame(i), color: i == currentPage ? Self.currentDotColor : Self.otherDotColor)
            }
        } else if let font {
            context.drawShadowedText(text, centeredIn: pill, font: font, color: .white)
        } else {
            let track = pill.insetBy(dx: radius, dy: pill.height / 2 - metrics.pixels(2))
            context.fillRoundedRect(track, radius: track.height / 2, color: Self.otherDotColor)
            let fraction = Double(currentPage + 1) / Double(pageCount)
            context.fillRoundedRect(Rect(x: track.minX, y: track.minY, width: track.width * fraction, height: track.height),
                                    radius: track.height / 2, color: Self.currentDotColor)
        }
    }

    // MARK: Touches

    public override func touchesBegan(_ touches: [Touch]) {
        isTracking = true
        isScrubbing = false
    }

    public override func touchesMoved(_ touches: [Touch]) {
        guard let touch = touches.first, pageCount > 1 else { return }
        let here = convert(touch.location, from: nil)
        if !isScrubbing, abs(here.x - convert(touch.startLocation, from: nil).x) > metrics.pixels(Self.scrubThreshold) {
            isScrubbing = true
        }
        guard isScrubbing else { return }
        select(page(atX: here.x), animated: false)
    }

    public override func touchesEnded(_ touches: [Touch]) {
        defer { isTracking = false; isScrubbing = false }
        guard !isScrubbing, let touch = touches.first, pageCount > 1 else { return }
        let x = convert(touch.location, from: nil).x
        let current = usesDots ? dotFrame(currentPage).midX : pillFrame.midX
        select(currentPage + (x < current ? -1 : 1), animated: true)
    }

    public override func touchesCancelled(_ touches: [Touch]) {
        isTracking = false
        isScrubbing = false
    }

    private func select(_ page: Int, animated: Bool) {
        let page = min(pageCount - 1, max(0, page))
        guard page != currentPage else { return }
        currentPage = page
        onSelectPage?(page, animated)
    }
}
