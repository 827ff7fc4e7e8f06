import Graphics

/// Where a slideshow photo goes on screen: the photo aspect-fit (never cropped), and what fills
/// the bars beside a portrait photo on a landscape screen (or above a landscape one on a portrait
/// screen): the same photo scaled to cover the screen and blurred, or a solid colour.
public struct SlideLayout: Equatable, Sendable {
    public enum Background: Equatable, Sendable {
        /// Draw the photo into this rect (it covers the screen, cropped at the edges), then blur.
        case blurredPhoto(Rect)
        case solid(Color)
    }

    public var photo: Rect
    public var background: Background

    /// Bars thinner than this (in pixels, per side) are not worth a blur.
    public static let minimumBar: Double = 1

    public init(photoSize: Size, screen: Rect, fill: KioskConfig.PortraitFill, background color: Color) {
        photo = screen.aspectFit(photoSize)
        let bar = max(photo.minX - screen.minX, photo.minY - screen.minY)
        switch fill {
        case .blur where bar >= Self.minimumBar && !photoSize.isEmpty:
            background = .blurredPhoto(screen.aspectFill(photoSize))
        case .blur, .solid:
            background = .solid(color)
        case .none:
            background = .solid(.black)
        }
    }
}
