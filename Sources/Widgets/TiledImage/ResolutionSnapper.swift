/// ScrollViewSuite's updateResolution (TiledScrollView.m): after a zoom ends, re-base the zoom
/// scale onto another power-of-two level so that tiles are drawn near 1:1.
///
/// Drop: for t = minimum … r − 1 in that order, d = t − r; the first t with zoom ≤ 2^d wins (the
/// largest allowed drop). Rise (only without a drop): for t = maximum … r + 1, d = t − r; the
/// first with zoom > 2^(d−1) wins. Applying d multiplies the zoom and its limits by 2^−d, which
/// keeps the on-screen size (zoom · 2^resolution) unchanged.
public struct ResolutionSnapper: Hashable, Sendable {
    public var resolution: Int
    public var minimumResolution: Int
    public var maximumResolution: Int
    public var zoomScale: Double
    public var minimumZoomScale: Double
    public var maximumZoomScale: Double

    public init(resolution: Int, minimumResolution: Int, maximumResolution: Int,
                zoomScale: Double, minimumZoomScale: Double, maximumZoomScale: Double) {
        precondition(minimumResolution <= maximumResolution, "resolution limits reversed")
        self.resolution = resolution
        self.minimumResolution = minimumResolution
        self.maximumResolution = maximumResolution
        self.zoomScale = zoomScale
        self.minimumZoomScale = minimumZoomScale
        self.maximumZoomScale = maximumZoomScale
    }

    /// The change of resolution for `zoom` at `resolution` (0: stay).
    public static func delta(zoom: Double, resolution r: Int, minimum: Int, maximum: Int) -> Int {
        if minimum < r {
            for t in minimum..<r {
                let d = t - r
                if zoom <= power(d) { return d }
            }
        }
        if maximum > r {
            for t in stride(from: maximum, to: r, by: -1) {
                let d = t - r
                if zoom > power(d - 1) { return d }
            }
        }
        return 0
    }

    /// Screen pixels per full-resolution pixel; snapping never changes it.
    public var effectiveScale: Double { zoomScale * Self.power(resolution) }

    /// Snaps for the current zoom; returns the change applied.
    @discardableResult
    public mutating func update() -> Int {
        let d = Self.delta(zoom: zoomScale, resolution: resolution, minimum: minimumResolution, maximum: maximumResolution)
        guard d != 0 else { return 0 }
        resolution += d
        let f = Self.power(-d)
        zoomScale *= f
        minimumZoomScale *= f
        maximumZoomScale *= f
        return d
    }

    /// 2^n, exact for any integer n in range.
    public static func power(_ n: Int) -> Double {
        n >= 0 ? Double(sign: .plus, exponent: n, significand: 1) : 1 / Double(sign: .plus, exponent: -n, significand: 1)
    }
}
