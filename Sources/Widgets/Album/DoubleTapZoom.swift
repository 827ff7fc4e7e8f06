/// What a double tap does to a photo's zoom, the same for every photo whatever its size (the
/// album's own pages and the tiled view of photos over twice the screen follow it alike).
///
/// Scales are screen pixels per photo pixel. Each double tap doubles the scale at the tap,
/// stopping at 1:1 (one photo pixel per screen pixel) when a doubling would pass it; at the
/// maximum a double tap goes back to fitting the whole photo. The maximum is
/// `PhotoZoomLimits.maximumPixelScale` (4: a photo pixel as 4×4 screen pixels), or twice
/// the fit for a photo under half the screen's width and height, so there is always a step to take.
///
/// So a photo 3× the screen goes fit (1/3) → 2/3 → 1:1 → 2 → 4 → fit, and one 1.5× the screen
/// fit (2/3) → 1:1 → 2 → 4 → fit.
public enum DoubleTapZoom {
    /// Within this of a limit counts as at it.
    static let tolerance = 1e-6

    /// The scale a double tap at `current` goes to.
    public static func target(from current: Double, fit: Double, maximum: Double) -> Double {
        if current >= maximum - tolerance { return fit }
        var next = min(2 * current, maximum)
        if current < 1 - tolerance && next > 1 { next = 1 }
        return max(next, fit)
    }
}
