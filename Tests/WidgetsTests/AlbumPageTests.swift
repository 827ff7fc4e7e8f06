import Testing
import Graphics
import UI
@testable import Widgets

@Suite struct AlbumPageTests {
    let viewport = Size(width: 400, height: 300)

    @Test func zoomLimitsForLandscapePortraitAndSmallPhotos() {
        let cases: [(photo: Size, minimum: Double, maximum: Double)] = [
            (Size(width: 4000, height: 2000), 0.1, 4),   // landscape
            (Size(width: 1500, height: 3000), 0.1, 4),   // portrait
            // Smaller than the screen: fit enlarges it; the maximum is the same 4 photo pixels...
            (Size(width: 200, height: 100), 2, 4),
            // ...or twice the fit for a tiny photo, so a double tap always has a step to take.
            (Size(width: 40, height: 30), 10, 20),
            (Size(width: 8000, height: 200), 0.05, 4),   // panorama
        ]
        for (photo, minimum, maximum) in cases {
            let limits = PhotoZoomLimits(photo: photo, viewport: viewport)
            #expect(limits.minimum == minimum, "\(photo)")
            #expect(limits.maximum == maximum, "\(photo)")
        }
    }

    @Test func fullResolutionIsNeededOnlyPastTheScreenImage() {
        let big = Size(width: 5640, height: 3172)
        let screen = Size(width: 1920, height: 1080)
        let fit = big.scaleToFit(screen)
        #expect(!PhotoZoomLimits.needsFullResolution(photo: big, viewport: screen, zoomScale: fit))
        #expect(PhotoZoomLimits.needsFullResolution(photo: big, viewport: screen, zoomScale: fit * 1.5))
        #expect(!PhotoZoomLimits.needsFullResolution(photo: Size(width: 800, height: 600), viewport: screen, zoomScale: 3))
    }

    @Test func thumbnailShowsAtTheOriginalsFinalSize() {
        let h = AlbumHarness(count: 3)
        h.provider.contents[0] = PhotoContent(bitmap: solid(.red, width: 80, height: 40), quality: .thumbnail,
                                             originalSize: Size(width: 4000, height: 2000))
        h.album.photoDidChange(at: 0)
        let page = h.album.centerPage!
        #expect(page.contentView.bounds.size == Size(width: 4000, height: 2000))
        #expect(page.zoomScale == 0.1)
        #expect(page.maximumZoomScale == 4)
        h.window.layoutIfNeeded()
        let screen = h.render()
        // 400x200 letterboxed in 400x300: rows 50..<250 red, black above and below.
        #expect(screen.color(x: 200, y: 150) == .red)
        #expect(screen.color(x: 200, y: 60) == .red)
        #expect(screen.color(x: 200, y: 20) == .black)
    }

    @Test func contentNeverGoesDownInQualityWhateverOrderLoadsFinish() {
        let h = AlbumHarness(count: 3)
        let page = h.album.centerPage!
        let size = Size(width: 4000, height: 2000)
        let thumb = PhotoContent(bitmap: solid(.red, width: 80, height: 40), quality: .thumbnail, originalSize: size)
        let screen = PhotoContent(bitmap: solid(.green, width: 400, height: 200), quality: .screen, originalSize: size)
        let full = PhotoContent(bitmap: solid(.blue, width: 4000, height: 2000), quality: .full, originalSize: size)
        #expect(page.show(screen))
        #expect(!page.show(thumb))
        #expect(page.content.quality == .screen)
        #expect(page.bitmap === screen.bitmap)
        #expect(page.show(full))
        #expect(!page.show(screen))
        #expect(!page.show(thumb))
        #expect(page.bitmap === full.bitmap)
        // A failure after an image keeps the image (a later load of another size failed).
        page.show(PhotoContent(failure: "truncated"))
        #expect(page.bitmap === full.bitmap)
        #expect(!page.contentView.isBroken)
    }

    @Test func brokenPhotoShowsTheBrokenTileAndNoSpinner() {
        let h = AlbumHarness(count: 3)
        let page = h.album.centerPage!
        #expect(page.spinner.isSpinning)
        h.provider.contents[0] = PhotoContent(failure: "not a JPEG")
        h.album.photoDidChange(at: 0)
        #expect(page.contentView.isBroken)
        #expect(!page.spinner.isSpinning)
        #expect(page.isLoaded)
        let screen = h.render()
        #expect(screen.color(x: 200, y: 150 - 100) == ThumbnailCellView.brokenColor)
    }

    @Test func spinnerTurnsOnlyOnTheCentrePageWhileLoading() {
        let h = AlbumHarness(count: 5, start: 2)
        #expect(h.album.page(at: 2)!.spinner.isSpinning)
        #expect(!h.album.page(at: 1)!.spinner.isSpinning)
        #expect(!h.album.page(at: 3)!.spinner.isSpinning)
        h.provider.contents[2] = PhotoContent(bitmap: solid(.red, width: 40, height: 20), quality: .thumbnail,
                                             originalSize: Size(width: 800, height: 400))
        h.album.photoDidChange(at: 2)
        #expect(h.album.page(at: 2)!.spinner.isSpinning)
        h.provider.contents[2] = PhotoContent(bitmap: solid(.green, width: 400, height: 200), quality: .screen,
                                             originalSize: Size(width: 800, height: 400))
        h.album.photoDidChange(at: 2)
        #expect(!h.album.page(at: 2)!.spinner.isSpinning)
        #expect(h.album.isCenterPageLoaded)
        // Moving on: the new centre page (still loading) spins, the old one does not.
        h.album.setCenterPageIndex(3, animated: false)
        #expect(h.album.page(at: 3)!.spinner.isSpinning)
        #expect(!h.album.page(at: 2)!.spinner.isSpinning)
    }

    func loadedHarness(count: Int = 5, start: Int = 0, original: Size = Size(width: 4000, height: 3000)) -> AlbumHarness {
        let h = AlbumHarness(count: count, start: start)
        for i in 0..<count {
            h.provider.contents[i] = PhotoContent(bitmap: solid(.gray, width: 400, height: 300), quality: .screen, originalSize: original)
            h.album.photoDidChange(at: i)
        }
        return h
    }

    @Test func doubleTapZoomsInAtTheTapThenBackToFit() {
        let h = loadedHarness()
        let page = h.album.centerPage!
        #expect(page.zoomScale == 0.1)
        h.doubleTap(Point(x: 100, y: 75))
        h.settle()
        #expect(abs(page.zoomScale - 0.2) < 1e-9)
        // The tapped photo point (1000, 750 in original pixels) is brought as near the centre
        // as the photo's edges allow (here exactly its top left corner of the view).
        let shown = page.contentView.convert(Point(x: 1000, y: 750), to: nil)
        #expect(abs(shown.x - 200) < 1 && abs(shown.y - 150) < 1)
        #expect(page.neededQuality == .full)
        #expect(h.provider.lastDemands[0]?.quality == .full)
        // On through 0.4, 0.8, 1:1 (not 1.6), 2 and the maximum 4, then back to fit.
        var scales: [Double] = []
        for _ in 0..<6 {
            h.advance(by: 0.5)
            h.doubleTap(Point(x: 200, y: 150))
            h.settle()
            scales.append(page.zoomScale)
        }
        let expected: [Double] = [0.4, 0.8, 1, 2, 4, 0.1]
        #expect(zip(scales, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(scales)")
        #expect(page.neededQuality == .screen)
        #expect(h.provider.lastDemands[0]?.quality == .screen)
    }

    /// Two fingers moving apart from 100 to `spread` points, then lifting.
    func pinch(_ h: AlbumHarness, spread: Double) {
        h.touch(.began, Point(x: 150, y: 150), slot: 0)
        h.touch(.began, Point(x: 250, y: 150), slot: 1)
        for i in 1...20 {
            h.advance(by: AlbumHarness.frame)
            let d = (50 + (spread / 2 - 50) * Double(i) / 20)
            h.window.dispatch([TouchEvent(slot: 0, phase: .moved, location: Point(x: 200 - d, y: 150), timestamp: h.clock.now),
                               TouchEvent(slot: 1, phase: .moved, location: Point(x: 200 + d, y: 150), timestamp: h.clock.now)])
        }
        h.window.dispatch([TouchEvent(slot: 0, phase: .ended, location: Point(x: 200 - spread / 2, y: 150), timestamp: h.clock.now),
                           TouchEvent(slot: 1, phase: .ended, location: Point(x: 200 + spread / 2, y: 150), timestamp: h.clock.now)])
        h.settle()
    }

    @Test func pinchZoomsAndSpringsBackInsideTheLimits() {
        let h = loadedHarness()
        let page = h.album.centerPage!
        pinch(h, spread: 300)
        // About 3× the fit scale (the pinch counts from where it was recognized).
        #expect(page.zoomScale > 0.2 && page.zoomScale < 0.4)
        #expect(h.album.centerPageIndex == 0)
        #expect(h.provider.lastDemands[0]?.quality == .full)
        pinch(h, spread: 390)
        pinch(h, spread: 390)
        pinch(h, spread: 390)
        #expect(abs(page.zoomScale - page.maximumZoomScale) < 1e-9)
    }

    @Test func zoomResetsWhenThePageIsScrolledAway() {
        let h = loadedHarness(start: 1)
        let page = h.album.page(at: 1)!
        h.doubleTap(Point(x: 200, y: 150))
        h.settle()
        #expect(!page.isAtMinimumZoom)
        h.album.setCenterPageIndex(2, animated: true)
        h.settle()
        h.advance(by: 0.5)
        #expect(h.album.centerPageIndex == 2)
        #expect(h.album.page(at: 1) === page)
        #expect(page.isAtMinimumZoom)
        #expect(page.contentView.frame.size == Size(width: 400, height: 300))
    }

    @Test func swipeDownAtFitZoomCloses() {
        let h = loadedHarness()
        h.drag(from: Point(x: 200, y: 80), to: Point(x: 205, y: 260), duration: 0.3)
        #expect(h.closed == 1)
    }

    @Test func shortSlowSwipeDownSpringsBack() {
        let h = loadedHarness()
        h.drag(from: Point(x: 200, y: 80), to: Point(x: 200, y: 140), duration: 1.0)
        #expect(h.closed == 0)
        h.advance(by: 0.1); h.advance(by: 0.2); h.advance(by: 0.1)
        #expect(h.pager.transform == .identity)
    }

    @Test func swipeDownWhileZoomedPansThePhotoInstead() {
        let h = loadedHarness()
        let page = h.album.centerPage!
        h.doubleTap(Point(x: 200, y: 150))
        h.settle()
        let before = page.contentOffset
        h.drag(from: Point(x: 200, y: 80), to: Point(x: 200, y: 260), duration: 0.3)
        h.settle()
        #expect(h.closed == 0)
        #expect(page.contentOffset.y < before.y)
    }

    @Test func backButtonCloses() {
        let h = loadedHarness()
        let button = h.album.backButton.frame
        h.tap(button.center)
        h.advance(by: 0.5)
        #expect(h.closed == 1)
    }
}

@Suite struct AlbumPageDetailTests {
    /// 1-pixel black/white columns: any resampling turns them grey.
    func stripes(width: Int, height: Int) -> Bitmap {
        let b = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { b.setPixel(x: x, y: y, (x % 2 == 0 ? Color.black : Color.white).pixel) }
        }
        return b
    }

    @Test func atOneToOneTheFullImageShowsEveryPixel() {
        let h = AlbumHarness(count: 1)
        let page = h.album.centerPage!
        let original = Size(width: 1600, height: 1200)
        page.show(PhotoContent(bitmap: solid(.gray, width: 400, height: 300), quality: .screen, originalSize: original))
        h.window.layoutIfNeeded()
        page.setZoomScale(1, animated: false)
        #expect(page.neededQuality == .full)
        page.show(PhotoContent(bitmap: stripes(width: 1600, height: 1200), quality: .full, originalSize: original))
        h.window.layoutIfNeeded()
        let screen = h.render()
        let y = 150
        var alternations = 0
        for x in 100..<300 {
            let a = screen.color(x: x, y: y), b = screen.color(x: x + 1, y: y)
            #expect(a == .black || a == .white)
            if a != b { alternations += 1 }
        }
        #expect(alternations == 200)
    }

    @Test func aRotatedScreenKeepsThePhotoFitted() {
        let h = AlbumHarness(count: 2)
        let page = h.album.centerPage!
        page.show(PhotoContent(bitmap: solid(.red, width: 400, height: 200), quality: .screen, originalSize: Size(width: 4000, height: 2000)))
        #expect(page.zoomScale == 0.1)
        h.album.frame = Rect(x: 0, y: 0, width: 300, height: 400)
        h.window.layoutIfNeeded()
        #expect(h.album.centerPage === page)
        #expect(abs(page.zoomScale - 0.075) < 1e-9)
        #expect(page.contentView.frame == Rect(x: 0, y: 125, width: 300, height: 150))
    }
}

@Suite struct AlbumZoomedPagingTests {
    func loaded(_ count: Int, start: Int) -> AlbumHarness {
        let h = AlbumHarness(count: count, start: start)
        for i in 0..<count {
            h.provider.contents[i] = PhotoContent(bitmap: solid(.gray, width: 400, height: 300), quality: .screen,
                                                 originalSize: Size(width: 4000, height: 3000))
            h.album.photoDidChange(at: i)
        }
        return h
    }

    @Test func aZoomedPhotoPansInsideAndPagesOnlyFromItsEdge() {
        let h = loaded(5, start: 2)
        let page = h.album.centerPage!
        h.doubleTap(Point(x: 200, y: 150))
        h.settle()
        h.advance(by: 0.5)
        #expect(abs(page.zoomScale - 0.2) < 1e-9)
        // Away from the edges a horizontal drag moves the photo, not the album.
        let before = page.contentOffset.x
        h.drag(from: Point(x: 300, y: 150), to: Point(x: 200, y: 150), duration: 0.5)
        h.settle()
        #expect(page.contentOffset.x > before)
        #expect(h.album.centerPageIndex == 2)
        // At the right edge, a drag to the left pages on, and the zoom resets once there.
        page.contentOffset = Point(x: page.maximumContentOffset.x, y: page.contentOffset.y)
        h.drag(from: Point(x: 300, y: 150), to: Point(x: 200, y: 150), duration: 0.1)
        h.settle()
        h.advance(by: 0.5)
        #expect(h.album.centerPageIndex == 3)
        #expect(page.isAtMinimumZoom)
    }
}
