import Graphics

/// Renders one slideshow photo into a screen-sized bitmap, once per photo: the photo aspect-fit
/// and, beside a portrait photo on a landscape screen (or above a landscape one on a portrait
/// screen), a blurred enlargement of the same photo or a solid colour (`SlideLayout` decides).
/// A cross-fade then only blends two ready bitmaps each frame.
///
/// The blur is cheap and real: the cover-sized photo is shrunk about 32 times with pixman's
/// averaging filter, box-blurred at that size (a few thousand pixels), and enlarged again with
/// bilinear sampling in two steps, which leaves no visible blocks; a dark veil keeps the
/// background behind the photo.
public enum SlideComposer {
    /// How much smaller than the screen the blur is computed.
    public static let blurReduction = 32
    /// Darkening of the blurred background, 0...1.
    public static let veil = 0.35

    /// One photo on a slide of `size` (the screen's, or larger for Ken Burns); returns the slide
    /// and where the photo lies on it.
    public static func compose(_ photo: Bitmap, size: Size, fill: KioskConfig.PortraitFill, background: Color) -> (Bitmap, Rect) {
        let slide = blankSlide(size)
        let canvas = Canvas(target: slide)
        let bounds = Rect(size: slide.size)
        let layout = SlideLayout(photoSize: photo.size, screen: bounds, fill: fill, background: background)
        switch layout.background {
        case .solid(let color):
            canvas.clear(color)
        case .blurredPhoto(let cover):
            canvas.draw(blurred(photo, cover: cover, screen: slide.size), in: bounds, quality: .bilinear)
            canvas.fill(bounds, color: Color.black.withAlpha(veil))
        }
        canvas.draw(photo, in: layout.photo, quality: .bilinear)
        return (slide, layout.photo)
    }

    public static func compose(_ photo: Bitmap, screen: Size, fill: KioskConfig.PortraitFill, background: Color) -> Bitmap {
        compose(photo, size: screen, fill: fill, background: background).0
    }

    /// Two photos side by side (or stacked) as `PortraitPairing` places them, on the background
    /// colour (black with `portrait_fill = "none"`): the pair leaves only thin bars, not worth a
    /// blur. Returns the slide and the area the pair covers.
    public static func composePair(_ first: Bitmap, _ second: Bitmap, size: Size, fill: KioskConfig.PortraitFill,
                                   background: Color) -> (Bitmap, Rect) {
        let slide = blankSlide(size)
        let canvas = Canvas(target: slide)
        canvas.clear(fill == .none ? .black : background)
        let places = PortraitPairing.layout(first: first.size, second: second.size, screen: Rect(size: slide.size))
        canvas.draw(first, in: places.first, quality: .bilinear)
        canvas.draw(second, in: places.second, quality: .bilinear)
        return (slide, places.first.union(places.second))
    }

    private static func blankSlide(_ size: Size) -> Bitmap {
        Bitmap(width: max(1, Int(size.width.rounded())), height: max(1, Int(size.height.rounded())))
    }

    /// The photo covering the screen, blurred, at a quarter of the screen's size (the caller's
    /// final bilinear enlargement is the second smoothing step).
    static func blurred(_ photo: Bitmap, cover: Rect, screen: Size) -> Bitmap {
        let r = Double(blurReduction)
        let tiny = Bitmap(width: max(2, Int((screen.width / r).rounded(.up))), height: max(2, Int((screen.height / r).rounded(.up))))
        Canvas(target: tiny).draw(photo, in: Rect(x: cover.minX / r, y: cover.minY / r, width: cover.width / r, height: cover.height / r),
                                  quality: .good)
        boxBlur(tiny)
        let quarter = Bitmap(width: max(2, Int((screen.width / 4).rounded(.up))), height: max(2, Int((screen.height / 4).rounded(.up))))
        Canvas(target: quarter).draw(tiny, in: Rect(size: quarter.size), quality: .bilinear)
        return quarter
    }

    /// A 3x3 box blur in place (edges clamp), on a bitmap of a few thousand pixels.
    static func boxBlur(_ bitmap: Bitmap) {
        let w = bitmap.width, h = bitmap.height
        let source = bitmap.copy()
        for y in 0..<h {
            for x in 0..<w {
                var r = 0, g = 0, b = 0
                for dy in -1...1 {
                    for dx in -1...1 {
                        let p = source.pixel(x: min(w - 1, max(0, x + dx)), y: min(h - 1, max(0, y + dy)))
                        r += Int((p >> 16) & 0xFF); g += Int((p >> 8) & 0xFF); b += Int(p & 0xFF)
                    }
                }
                bitmap.setPixel(x: x, y: y, 0xFF00_0000 | UInt32(r / 9) << 16 | UInt32(g / 9) << 8 | UInt32(b / 9))
            }
        }
    }
}
