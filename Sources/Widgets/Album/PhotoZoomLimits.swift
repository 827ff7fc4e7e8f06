import Graphics

/// The zoom range of a photo page, in screen pixels per ORIGINAL photo pixel.
///
/// Minimum: the whole photo fits the screen. Maximum: one photo pixel per screen pixel, or the
/// scale that fills the screen when that is larger (small photos; Nimbus'
/// zoomingAboveOriginalSize). Without a known original size there is no zoom.
public struct PhotoZoomLimits: Hashable, Sendable {
    public let minimum: Double
    public let maximum: Double

    public init(photo: Size, viewport: Size) {
        guard !photo.isEmpty, !viewport.isEmpty else {
            minimum = 1; maximum = 1
            return
        }
        let fit = photo.scaleToFit(viewport)
        minimum = fit
        maximum = max(fit, max(1, photo.scaleToFill(viewport)))
    }

    /// Whether content at `scale` needs more pixels than a screen-sized decode has: only when
    /// the photo is larger than the screen and zoomed past fitting it.
    public static func needsFullResolution(photo: Size, viewport: Size, zoomScale: Double) -> Bool {
        guard !photo.isEmpty, !viewport.isEmpty else { return false }
        let fit = photo.scaleToFit(viewport)
        return fit < 1 && zoomScale > fit * 1.01
    }
}
