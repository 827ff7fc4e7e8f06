import Testing
import Graphics
import UI
@testable import Widgets

/// The double-tap rule is the same on every photo: photos just under and just over twice the
/// screen (where the app switches an album page to the tiled view) step alike.
@Suite struct DoubleTapZoomTests {
    func steps(fit: Double, maximum: Double = PhotoZoomLimits.maximumPixelScale, taps: Int) -> [Double] {
        var scale = fit, result: [Double] = []
        for _ in 0..<taps {
            scale = DoubleTapZoom.target(from: scale, fit: fit, maximum: maximum)
            result.append(scale)
        }
        return result
    }

    @Test func doublesViaOneToOneToTheMaximumThenBackToFit() {
        let third: [Double] = [2.0 / 3, 1, 2, 4, 1.0 / 3, 2.0 / 3]
        #expect(near(steps(fit: 1.0 / 3, taps: 6), third))
        let twoThirds: [Double] = [1, 2, 4, 2.0 / 3, 1]
        #expect(near(steps(fit: 2.0 / 3, taps: 5), twoThirds))
        // Small photos (fit above 1:1) double from fit.
        let small: [Double] = [3, 4, 1.5]
        #expect(near(steps(fit: 1.5, taps: 3), small))
        // A pinch left between steps: the next tap doubles from there.
        #expect(DoubleTapZoom.target(from: 1.3, fit: 0.4, maximum: 4) == 2.6)
        #expect(DoubleTapZoom.target(from: 0.7, fit: 0.4, maximum: 4) == 1)
    }

    func page(photo: Size, viewport: Size) -> (AlbumHarness, PhotoPageView) {
        let h = AlbumHarness(count: 1, size: viewport)
        let page = h.album.centerPage!
        page.show(PhotoContent(bitmap: solid(.gray, width: Int(viewport.width), height: Int(viewport.height)),
                               quality: .screen, originalSize: photo))
        h.window.layoutIfNeeded()
        return (h, page)
    }

    func doubleTapScales(_ h: AlbumHarness, _ page: PhotoPageView, taps: Int) -> [Double] {
        var scales: [Double] = []
        for _ in 0..<taps {
            h.doubleTap(Point(x: h.window.bounds.midX, y: h.window.bounds.midY))
            h.settle()
            h.advance(by: 0.5)
            scales.append(page.zoomScale)
        }
        return scales
    }

    func near(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-6 }
    }

    @Test func aPageJustUnderTwiceTheScreenStepsLikeTheTiledView() {
        let viewport = Size(width: 400, height: 300)
        let (h, page) = page(photo: Size(width: 760, height: 570), viewport: viewport)   // 1.9× the screen
        let fit = 400.0 / 760
        let scales = doubleTapScales(h, page, taps: 5)
        let expected: [Double] = [1, 2, 4, fit, 1]
        #expect(near(scales, expected), "\(scales)")
    }

    @Test func aPageJustOverTwiceTheScreenStepsTheSameWay() {
        let viewport = Size(width: 400, height: 300)
        let (h, page) = page(photo: Size(width: 840, height: 630), viewport: viewport)   // 2.1× the screen
        let fit = 400.0 / 840
        let scales = doubleTapScales(h, page, taps: 6)
        let expected: [Double] = [2 * fit, 1, 2, 4, fit, 2 * fit]
        #expect(near(scales, expected), "\(scales)")
    }

    @Test func theTiledViewFollowsTheSameRule() {
        let clock = ManualClock(now: 0)
        let window = Window(size: Size(width: 400, height: 300), clock: clock)
        let view = TiledImageView(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        window.addSubview(view)
        view.provider = SizeOnlyTileProvider(width: 840, height: 630)
        window.layoutIfNeeded()
        let fit = view.fitScale
        #expect(abs(fit - 400.0 / 840) < 1e-9)
        #expect(view.maximumScale == PhotoZoomLimits.maximumPixelScale)
        var scales: [Double] = []
        for _ in 0..<5 {
            for _ in 0..<2 {
                window.dispatch([TouchEvent(slot: 0, phase: .began, location: Point(x: 200, y: 150), timestamp: clock.now)])
                clock.now += 0.05; window.advance(to: clock.now)
                window.dispatch([TouchEvent(slot: 0, phase: .ended, location: Point(x: 200, y: 150), timestamp: clock.now)])
                clock.now += 0.1; window.advance(to: clock.now)
            }
            var steps = 0
            while let deadline = window.nextDeadline, steps < 2000 {
                clock.now = max(clock.now, deadline); window.advance(to: clock.now); window.layoutIfNeeded(); steps += 1
            }
            scales.append(view.effectiveScale)
        }
        let expected: [Double] = [2 * fit, 1, 2, 4, fit]
        #expect(near(scales, expected), "\(scales)")
    }
}
