import Graphics

/// The edge-autoscroll rule of ScrollViewSuite's Autoscroll sample: while a dragged item is held
/// within `threshold` of an edge, the scroll view moves by ceil((threshold − proximity)/5) points
/// per 1/60 s tick — 1 point at the zone's inner border up to 6 at the very edge — clamped so
/// it never scrolls past the content.
public struct AutoscrollRule: Hashable, Sendable {
    /// Width of the edge zone, in points at density 1 (the seed uses 30).
    public var threshold: Double
    /// Screen pixels per point: distances scale with display density.
    public var density: Double
    /// The seed's divisor: one more point per tick for every 5 points closer to the edge.
    public static let stepDivisor = 5.0
    /// The seed's timer interval.
    public static let tickInterval = 1.0 / 60.0

    public init(threshold: Double = 30, density: Double = 1) {
        self.threshold = threshold
        self.density = max(0.01, density)
    }

    /// Signed scroll distance per tick for a finger at `position` along one axis, where the
    /// visible part of the content spans `visibleMin..<visibleMax` (the scroll view's bounds on
    /// that axis). Zero means "outside the zone": stop the timer.
    public func distance(position: Double, visibleMin: Double, visibleMax: Double) -> Double {
        let zone = threshold * density
        let fromStart = position - visibleMin
        let fromEnd = visibleMax - position
        if fromStart < zone {
            return -step(proximity: max(0, fromStart), zone: zone)
        } else if fromEnd < zone {
            return step(proximity: max(0, fromEnd), zone: zone)
        }
        return 0
    }

    private func step(proximity: Double, zone: Double) -> Double {
        // Computed in points, then scaled: the same feel at any density.
        ((zone - proximity) / density / Self.stepDivisor).rounded(.up) * density
    }

    /// `distance` limited so the offset stays within 0...(contentLength − viewportLength).
    public static func clamp(_ distance: Double, offset: Double, contentLength: Double, viewportLength: Double) -> Double {
        let maxOffset = max(0, contentLength - viewportLength)
        return min(max(distance, -offset), maxOffset - offset)
    }
}
