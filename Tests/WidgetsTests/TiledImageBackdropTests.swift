import Testing
import Graphics
import UI
import Widgets

/// A tiled view over a page that already shows the photo (its thumbnail): tiles not loaded yet
/// let that picture show instead of the grey placeholder, at the same place, until they arrive.
@Suite struct TiledImageBackdropTests {
    static let placeholder = Color(rgb: 0x202024)
    static let backdropColor = Color(rgb: 0xFF8000)
    static let pageColor = Color(rgb: 0xFFFFFF)

    /// A 512x512 window: a white page with an orange "thumbnail" at the fit rectangle of a
    /// 2000x1000 image (y 128..384), and the tiled view of that image over it.
    func make(showsBackdrop: Bool) -> (Window, TiledImageView, CuttingTileProvider, Bitmap) {
        let window = Window(size: Size(width: 512, height: 512), clock: ManualClock(now: 1))
        let page = View(frame: window.bounds)
        page.backgroundColor = Self.pageColor
        let thumbnail = View(frame: Rect(x: 0, y: 128, width: 512, height: 256))
        thumbnail.backgroundColor = Self.backdropColor
        page.addSubview(thumbnail)
        window.addSubview(page)
        let view = TiledImageView(frame: window.bounds)
        view.showsBackdrop = showsBackdrop
        let provider = CuttingTileProvider(image: smoothImage(width: 2000, height: 1000))
        page.addSubview(view)
        view.provider = provider
        window.layoutIfNeeded()
        return (window, view, provider, Bitmap(width: 512, height: 512))
    }

    /// How many sampled points of `rect` have `color`, and how many were sampled.
    func count(_ color: Color, in bitmap: Bitmap, _ rect: PixelRect) -> (hits: Int, samples: Int) {
        var hits = 0, samples = 0
        for y in stride(from: rect.y, to: rect.maxY, by: 8) {
            for x in stride(from: rect.x, to: rect.maxX, by: 8) {
                samples += 1
                if bitmap.color(x: x, y: y) == color { hits += 1 }
            }
        }
        return (hits, samples)
    }

    let image = PixelRect(x: 0, y: 128, width: 512, height: 256)
    let above = PixelRect(x: 0, y: 0, width: 512, height: 120)

    @Test func theFitRectangleIsWhereAPageShowsThePhoto() {
        let (_, view, _, _) = make(showsBackdrop: true)
        #expect(view.fitFrame == Rect(x: 0, y: 128, width: 512, height: 256))
        #expect(view.isAtFitFrame)
        let frame = view.imageFrame
        #expect(abs(frame.minY - 128) < 1e-9 && abs(frame.height - 256) < 1e-9 && abs(frame.width - 512) < 1e-9)
    }

    @Test func aloneTheViewShowsThePlaceholderOnBlack() {
        let (window, _, _, bitmap) = make(showsBackdrop: false)
        window.render(into: Canvas(target: bitmap))
        let grey = count(Self.placeholder, in: bitmap, image)
        #expect(grey.hits == grey.samples)
        #expect(count(.black, in: bitmap, above).hits == count(.black, in: bitmap, above).samples)
    }

    @Test func beforeAnyTileTheBackdropShowsThroughAndTilesThenReplaceIt() throws {
        let (window, view, provider, bitmap) = make(showsBackdrop: true)
        let canvas = Canvas(target: bitmap)
        window.render(into: canvas)
        #expect(view.missingTileCount == view.liveTileCount)
        let orange = count(Self.backdropColor, in: bitmap, image)
        #expect(orange.hits == orange.samples)
        #expect(count(Self.placeholder, in: bitmap, PixelRect(x: 0, y: 0, width: 512, height: 512)).hits == 0)
        // Around the image the tiled view stays black: the page is not uncovered there.
        #expect(count(.black, in: bitmap, above).hits == count(.black, in: bitmap, above).samples)

        // One tile arrives: only its rectangle changes, the rest keeps the backdrop.
        let first = try #require(view.liveTileIDs.sorted { ($0.row, $0.column) < ($1.row, $1.column) }.first)
        provider.deliver(first)
        let damage = window.render(into: canvas)
        #expect(!damage.isEmpty)
        #expect(bitmap.color(x: 4, y: 132) != Self.backdropColor)
        #expect(bitmap.color(x: 508, y: 380) == Self.backdropColor)

        // Every tile: the tiles' own pixels (redrawn over the page beneath), no orange, no grey.
        provider.deliverAll()
        window.render(into: canvas)
        #expect(view.missingTileCount == 0)
        #expect(count(Self.backdropColor, in: bitmap, image).hits == 0)
        #expect(count(Self.placeholder, in: bitmap, image).hits == 0)
        let p = view.imagePoint(at: Point(x: 256.5, y: 256.5))
        let expected = provider.image.color(x: Int(p.x), y: Int(p.y))
        let got = bitmap.color(x: 256, y: 256)
        #expect(abs(Int(expected.red) - Int(got.red)) <= 3 && abs(Int(expected.green) - Int(got.green)) <= 3)
    }

    @Test func zoomedInAnEmptyTileShowsThePlaceholderNotTheMisplacedBackdrop() {
        let (window, view, _, bitmap) = make(showsBackdrop: true)
        view.setScale(1, animated: false)
        window.layoutIfNeeded()
        #expect(!view.isAtFitFrame)
        window.render(into: Canvas(target: bitmap))
        let all = PixelRect(x: 0, y: 0, width: 512, height: 512)
        #expect(count(Self.backdropColor, in: bitmap, all).hits == 0)
        #expect(count(Self.placeholder, in: bitmap, all).hits == count(Self.placeholder, in: bitmap, all).samples)

        // Back at fit the backdrop lines up again and shows through.
        view.setScale(view.fitScale, animated: false)
        window.layoutIfNeeded()
        #expect(view.isAtFitFrame)
        window.render(into: Canvas(target: bitmap))
        let orange = count(Self.backdropColor, in: bitmap, image)
        #expect(orange.hits == orange.samples)
    }
}

/// At fit over a page whose own picture is as sharp as fit tiles (its screen-sized decode),
/// the tiled view asks only for the one-tile level, not a screenful duplicating that picture.
@Suite struct TiledImageSharpBackdropTests {
    func make(sharp: Bool) -> (Window, TiledImageView, CuttingTileProvider) {
        let window = Window(size: Size(width: 512, height: 512), clock: ManualClock(now: 1))
        let view = TiledImageView(frame: window.bounds)
        view.showsBackdrop = true
        view.isBackdropSharp = { sharp }
        let provider = CuttingTileProvider(image: smoothImage(width: 2000, height: 1000))
        window.addSubview(view)
        view.provider = provider
        window.layoutIfNeeded()
        return (window, view, provider)
    }

    @Test func atFitOnlyTheOneTileLevelIsWanted() {
        let (_, view, provider) = make(sharp: true)
        #expect(view.isAtFitFrame)
        #expect(!provider.wanted.isEmpty)
        #expect(provider.wanted.values.allSatisfy { $0 == -1 })   // the stand-in a zoom starts from
        #expect(view.liveTileCount == 0 && view.missingTileCount == 0)
    }

    @Test func aBlurryBackdropOrAZoomWantsTheVisibleTiles() {
        let (_, blurry, blurryProvider) = make(sharp: false)
        #expect(blurry.liveTileCount > 0)
        #expect(blurryProvider.wanted.values.contains { $0 >= 0 })
        let (window, view, provider) = make(sharp: true)
        view.setScale(view.fitScale * 2, animated: false)
        window.layoutIfNeeded()
        #expect(!view.isAtFitFrame)
        #expect(view.liveTileCount > 0)
        #expect(provider.wanted.values.contains { $0 >= 0 })
    }
}
