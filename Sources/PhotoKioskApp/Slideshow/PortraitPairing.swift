import Graphics

/// Portrait pairing: two portrait photos side by side on a landscape screen (two landscape ones
/// stacked on a portrait screen), where one alone would leave half the screen to bars.
///
/// Which photos pair (the order is never changed): the photo the slideshow reaches is paired
/// with the one the order would show right after it, when both are narrow for the screen
/// (`isPairable`). The pair then counts as both photos shown: the order continues after the
/// second, which is not shown again on its own. A narrow photo followed by a wide one shows
/// alone; so does a photo whose successor is itself (a one-photo library).
public enum PortraitPairing {
    /// A photo pairs when its long side runs across the screen's short side by at least this
    /// ratio: a nearly square photo gains nothing from sharing the screen.
    public static let minimumAspect = 1.1

    /// Whether `photo` (its size after EXIF orientation) would leave wide bars on `screen`: a
    /// clearly portrait photo on a landscape screen, a clearly landscape one on a portrait screen.
    public static func isPairable(_ photo: Size, screen: Size) -> Bool {
        guard !photo.isEmpty, !screen.isEmpty else { return false }
        if screen.width > screen.height { return photo.height >= photo.width * minimumAspect }
        if screen.height > screen.width { return photo.width >= photo.height * minimumAspect }
        return false
    }

    /// The gap between the two photos, in pixels: a thin line of the background.
    public static func gap(screen: Size) -> Double {
        max(2, (min(screen.width, screen.height) / 100).rounded())
    }

    /// Where the two photos go: the screen split in halves across its long side, each photo
    /// aspect-fit in its half and pushed towards the middle, so the pair sits together as one
    /// picture with a thin gap and any bars go to the outer edges.
    public static func layout(first: Size, second: Size, screen: Rect) -> (first: Rect, second: Rect) {
        let gap = gap(screen: screen.size)
        if screen.width >= screen.height {
            let half = (screen.width - gap) / 2
            let a = Rect(x: screen.minX, y: screen.minY, width: half, height: screen.height).aspectFit(first)
            let b = Rect(x: screen.maxX - half, y: screen.minY, width: half, height: screen.height).aspectFit(second)
            return (Rect(x: screen.minX + half - a.width, y: a.minY, width: a.width, height: a.height),
                    Rect(x: screen.maxX - half, y: b.minY, width: b.width, height: b.height))
        }
        let half = (screen.height - gap) / 2
        let a = Rect(x: screen.minX, y: screen.minY, width: screen.width, height: half).aspectFit(first)
        let b = Rect(x: screen.minX, y: screen.maxY - half, width: screen.width, height: half).aspectFit(second)
        return (Rect(x: a.minX, y: screen.minY + half - a.height, width: a.width, height: a.height),
                Rect(x: b.minX, y: screen.maxY - half, width: b.width, height: b.height))
    }
}
