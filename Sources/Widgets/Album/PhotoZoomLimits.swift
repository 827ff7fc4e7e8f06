import Graphics

/// The zoom range of a photo page, in screen pixels per ORIGINAL photo pixel.
///
/// Minimum: the whole photo fits the screen. Maximum: `maximumPixelScale` screen pixels per
/// photo pixel, the same for every photo (the tiled view of large photos stops there too), or
/// twice the fit when that is more (a photo under half the screen's width and height), so a
/// double tap always has a step to take (see `DoubleTapZoom`). Without a known original size there is no zoom.
public struct PhotoZoomLimits: Hashable, Sendable {
    /// Screen pixels per photo pixel at the deepest zoom.
    public static let maximumPixelScale = 4.0
    public let minimum: Double
    public let maximum: Double

    public init(photo: Size, viewport: Size) {
        guard !photo.isEmpty, !viewport.isEmpty else {
            minimum = 1; maximum = 1
            return
        }
        let fit = photo.scaleToFit(viewport)
        minimum = fit
        maximum = Self.maximum(fit: fit)
    }

    /// The deepest zoom for a photo whose fit scale is `fit`.
    public static func maximum(fit: Double) -> Double {
        max(maximumPixelScale, 2 * fit)
    }

    /// Whether content at `scale` needs more pixels than a screen-sized decode has: only when
    /// the photo is larger than the screen and zoomed past fitting it.
    public static func needsFullResolution(photo: Size, viewport: Size, zoomScale: Double) -> Bool {
        guard !photo.isEmpty, !viewport.isEmpty else { return false }
        let fit = photo.scaleToFit(viewport)
        return fit < 1 && zoomScale > fit * 1.01
    }
}
