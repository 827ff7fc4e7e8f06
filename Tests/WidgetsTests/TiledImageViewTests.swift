import Basics
import Testing
import Glibc
import Graphics
import UI
@testable import Widgets

@Suite struct TiledImageViewTests {
    /// A 512x512 window (the seed's 3x3 case: at most 36 live tiles) showing a 5000x3000 image.
    func make(width: Int = 5000, height: Int = 3000, viewport: Size = Size(width: 512, height: 512))
        -> (ManualClock, Window, TiledImageView, CuttingTileProvider)
    {
        let clock = ManualClock(now: 1)
        let window = Window(size: viewport, clock: clock)
        let view = TiledImageView(frame: window.bounds)
        let provider = CuttingTileProvider(image: smoothImage(width: width, height: height))
        window.addSubview(view)
        view.provider = provider
        window.layoutIfNeeded()
        return (clock, window, view, provider)
    }

    func settle(_ clock: ManualClock, _ window: Window) {
        var steps = 0
        while let deadline = window.nextDeadline, steps < 2000 {
            clock.now = max(clock.now, deadline)
            window.advance(to: clock.now)
            window.layoutIfNeeded()
            steps += 1
        }
        window.layoutIfNeeded()
    }

    func makeEmpty(width: Int, height: Int, clock: ManualClock = ManualClock(now: 1)) -> (Window, TiledImageView, SizeOnlyTileProvider) {
        let window = Window(size: Size(width: 512, height: 512), clock: clock)
        let view = TiledImageView(frame: window.bounds)
        let provider = SizeOnlyTileProvider(width: width, height: height)
        window.addSubview(view)
        view.provider = provider
        window.layoutIfNeeded()
        return (window, view, provider)
    }

    @Test func startsAtFitOnTheMatchingLevel() {
        let (_, view, provider) = makeEmpty(width: 5000, height: 3000)
        #expect(abs(view.effectiveScale - 512.0 / 5000) < 1e-12)
        // 0.1024 → level −3 (1/8) at zoom 0.8192.
        #expect(view.resolution == -3)
        #expect(abs(view.scrollView.zoomScale - 0.8192) < 1e-12)
        #expect(view.liveTileCount == 3 * 2)    // 625x375 level: 3x2 tiles
        // The single-tile level (157x94) is wanted first.
        let first = provider.wanted.min { $0.value < $1.value }!.key
        #expect(first == TileID(resolution: -5, column: 0, row: 0))
        #expect(provider.wanted.filter { $0.value < 0 }.count == 1)
    }

    @Test func snappingKeepsTheContentPointOnScreen() {
        let (window, view, _) = makeEmpty(width: 5000, height: 3000)
        let centre = Point(x: 256, y: 256)
        for scale in [0.4, 0.9, 0.13, 1.0, 2.7, 0.3, 4.0, 0.2] {
            view.scrollView.performSetZoomScale(scale / pow2(view.resolution), animated: false)
            window.layoutIfNeeded()
            let before = view.imagePoint(at: centre)
            let effective = view.effectiveScale
            let offset = view.scrollView.contentOffset
            view.updateResolution()
            window.layoutIfNeeded()
            #expect(abs(view.effectiveScale - effective) < 1e-9)
            #expect(view.scrollView.contentOffset == offset)
            #expect(view.imagePoint(at: centre).distance(to: before) < 1e-6, "scale \(scale)")
            // After snapping the zoom is in (0.5, 1] unless a limit stops it.
            let z = view.scrollView.zoomScale
            #expect((z > 0.5 && z <= 1) || view.resolution == 0 || view.resolution == view.minimumResolution)
        }
    }

    @Test func nonAnimatedSetZoomScaleSnaps() {
        let (_, view, _) = makeEmpty(width: 5000, height: 3000)
        view.setScale(0.6, animated: false)
        #expect(view.resolution == 0)
        #expect(abs(view.scrollView.zoomScale - 0.6) < 1e-12)
        view.setScale(0.2, animated: false)
        #expect(view.resolution == -2)
        #expect(abs(view.scrollView.zoomScale - 0.8) < 1e-12)
    }

    @Test func liveTilesStayUnderTheBoundAtEveryZoomAndOffset() {
        let (window, view, _) = makeEmpty(width: 20000, height: 20000)
        let bound = TileGrid.liveTileBound(viewport: window.bounds.size, tileSize: 256)
        #expect(bound == 36)
        var generator = SeededRandom(seed: 12345)
        func random() -> Double { Double.random(in: 0..<1, using: &generator) }
        var maximum = 0
        for i in 0..<400 {
            // Mid-pinch scales (no snapping) and snapped ones, from fit to 4x.
            let scale = 512.0 / 20000 * pow(4 * 20000 / 512.0, random())
            view.scrollView.performSetZoomScale(scale / pow2(view.resolution), animated: false)
            if i % 3 == 0 { view.updateResolution() }
            let maxOffset = view.scrollView.maximumContentOffset
            view.scrollView.contentOffset = Point(x: maxOffset.x * random(), y: maxOffset.y * random())
            window.layoutIfNeeded()
            #expect(view.liveTileCount <= bound, "scale \(scale)")
            #expect(view.liveTileCount > 0)
            maximum = max(maximum, view.liveTileCount)
        }
        #expect(maximum > 9)
    }

    @Test func coarserTileStandsInWhileTheFinerLoads() throws {
        let (_, window, view, provider) = make(width: 2000, height: 1500)
        let bitmap = Bitmap(width: 512, height: 512)
        let canvas = Canvas(target: bitmap)
        provider.deliverAll()
        view.setScale(1, animated: false)
        window.layoutIfNeeded()
        #expect(view.missingTileCount == view.liveTileCount)
        window.render(into: canvas)
        // Nothing of level 0 is loaded; the screen still shows the picture (from level −5..−3),
        // close to the reference everywhere.
        let placeholder = Color(rgb: 0x202024)
        var holes = 0
        for y in stride(from: 0, to: 512, by: 16) {
            for x in stride(from: 0, to: 512, by: 16) where bitmap.color(x: x, y: y) == placeholder { holes += 1 }
        }
        #expect(holes == 0)
        provider.deliverAll()
        #expect(view.missingTileCount == 0)
        window.render(into: canvas)
        let p = view.imagePoint(at: Point(x: 100.5, y: 300.5))
        let expected = provider.image.color(x: Int(p.x), y: Int(p.y))
        let got = bitmap.color(x: 100, y: 300)
        #expect(abs(Int(expected.red) - Int(got.red)) <= 2 && abs(Int(expected.green) - Int(got.green)) <= 2)
    }

    @Test func renderedPixelsMatchADirectlyScaledReference() throws {
        for scale in [0.3, 0.75, 1.0, 2.5] {
            let (_, window, view, provider) = make(width: 1800, height: 1300)
            view.zoom(toScale: scale, centeredAt: Point(x: 700, y: 650), animated: false)
            window.layoutIfNeeded()
            provider.deliverAll()
            window.layoutIfNeeded()
            provider.deliverAll()
            let bitmap = Bitmap(width: 512, height: 512)
            window.render(into: Canvas(target: bitmap))
            // Reference: the full image scaled once by pixman into the same place.
            let reference = Bitmap(width: 512, height: 512)
            let origin = view.imagePoint(at: .zero)
            let s = view.effectiveScale
            #expect(abs(s - scale) < 1e-9)
            Canvas(target: reference).draw(provider.image, in: Rect(x: -origin.x * s, y: -origin.y * s,
                                                                     width: 1800 * s, height: 1300 * s), quality: .good)
            var worst = 0, total = 0, count = 0
            for y in stride(from: 2, to: 510, by: 3) {
                for x in stride(from: 2, to: 510, by: 3) {
                    let a = bitmap.color(x: x, y: y), b = reference.color(x: x, y: y)
                    let d = max(abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)))
                    worst = max(worst, d); total += d; count += 1
                }
            }
            // Tile seams and level halving cost a little at the checker edges, nothing more.
            #expect(Double(total) / Double(count) < 2.5, "scale \(scale)")
            #expect(worst < 80, "scale \(scale)")
        }
    }

    @Test func doubleTapZoomsInAtThePointThenBackToFit() {
        let (clock, window, view, _) = make(width: 2000, height: 2000)
        let fit = view.fitScale
        func doubleTap(at p: Point) {
            for _ in 0..<2 {
                window.dispatch([TouchEvent(slot: 0, phase: .began, location: p, timestamp: clock.now)])
                clock.now += 0.05; window.advance(to: clock.now)
                window.dispatch([TouchEvent(slot: 0, phase: .ended, location: p, timestamp: clock.now)])
                clock.now += 0.1; window.advance(to: clock.now)
            }
            settle(clock, window)
        }
        let tapPoint = Point(x: 200, y: 300)
        let imagePoint = view.imagePoint(at: tapPoint)
        doubleTap(at: tapPoint)
        #expect(abs(view.effectiveScale - 2 * fit) < 1e-9)
        // The tapped point is now in the middle of the view.
        #expect(view.imagePoint(at: Point(x: 256, y: 256)).distance(to: imagePoint) < 1e-6)
        #expect(view.scrollView.zoomScale > 0.5 && view.scrollView.zoomScale <= 1)   // snapped
        doubleTap(at: Point(x: 256, y: 256))   // 0.512 → 1.024 passes 1:1: stops at 1
        #expect(abs(view.effectiveScale - 1) < 1e-9)
        doubleTap(at: Point(x: 256, y: 256))
        #expect(abs(view.effectiveScale - 2) < 1e-9)
        doubleTap(at: Point(x: 256, y: 256))
        #expect(abs(view.effectiveScale - 4) < 1e-9)
        doubleTap(at: Point(x: 256, y: 256))   // at the maximum: back to fit
        #expect(abs(view.effectiveScale - fit) < 1e-9)
    }

    @Test func twoFingerTapZoomsOut() {
        let (clock, window, view, _) = make(width: 2000, height: 2000)
        view.setScale(1, animated: false)
        window.layoutIfNeeded()
        window.dispatch([TouchEvent(slot: 0, phase: .began, location: Point(x: 200, y: 250), timestamp: clock.now),
                         TouchEvent(slot: 1, phase: .began, location: Point(x: 300, y: 250), timestamp: clock.now)])
        clock.now += 0.05; window.advance(to: clock.now)
        window.dispatch([TouchEvent(slot: 0, phase: .ended, location: Point(x: 200, y: 250), timestamp: clock.now),
                         TouchEvent(slot: 1, phase: .ended, location: Point(x: 300, y: 250), timestamp: clock.now)])
        settle(clock, window)
        #expect(abs(view.effectiveScale - 0.5) < 1e-9)
        #expect(view.resolution == -1)
    }

    @Test func pinchEndSnapsAndKeepsTheLevelShownWhilePinching() {
        let clock = ManualClock(now: 1)
        let (window, view, _) = makeEmpty(width: 8000, height: 8000, clock: clock)
        view.setScale(1, animated: false)
        window.layoutIfNeeded()
        #expect(view.resolution == 0)
        // Fingers from 300 apart to 60 apart: zoom ≈ 0.2 while pinching.
        let c = Point(x: 256, y: 256)
        window.dispatch(fingers(around: c, apart: 300, .began, at: clock.now))
        var d = 300.0
        for _ in 0..<20 {
            clock.now += 1.0 / 60; window.advance(to: clock.now)
            d -= 12
            window.dispatch(fingers(around: c, apart: d, .moved, at: clock.now))
            window.layoutIfNeeded()
            #expect(view.liveTileCount <= 36)
            // The tiles shown come from one level coarser and are enlarged 1-2x (a quarter of the
            // pixels to read per frame), not shrunk 0.5-1x as at rest.
            let tileScale = view.effectiveScale / pow2(view.displayedResolution)
            #expect(tileScale > 1 - 1e-9 && tileScale <= 2 + 1e-9, "mid-pinch tiles drawn at \(tileScale)x")
        }
        #expect(view.tileQuality == .nearest)         // every tile rescales each frame: cheap filter
        #expect(view.resolution == 0)                 // not snapped mid-pinch
        #expect(view.displayedResolution < 0)         // but coarser tiles are shown
        window.dispatch(fingers(around: c, apart: d, .ended, at: clock.now))
        settle(clock, window)
        #expect(view.resolution < 0)
        #expect(view.scrollView.zoomScale > 0.5 && view.scrollView.zoomScale <= 1)
        #expect(view.displayedResolution == view.resolution)
        let tileScale = view.effectiveScale / pow2(view.displayedResolution)
        #expect(tileScale > 0.5 && tileScale <= 1 + 1e-9, "after the pinch tiles drawn at \(tileScale)x")
        #expect(view.tileQuality == .bilinear)
    }

    @Test func wantedTilesFollowTheViewAndPutVisibleOnesFirst() {
        let (window, view, provider) = makeEmpty(width: 8000, height: 6000)
        view.zoom(toScale: 1, centeredAt: Point(x: 1000, y: 1000), animated: false)
        window.layoutIfNeeded()
        let visible = view.liveTileIDs
        #expect(visible.allSatisfy { $0.resolution == 0 })
        // Every visible tile is wanted, ahead of the parents that stand in for them.
        let worstVisible = visible.map { provider.wanted[$0]! }.max()!
        let parents = provider.wanted.filter { $0.key.resolution == -1 }
        #expect(!parents.isEmpty && parents.values.allSatisfy { $0 > worstVisible })
        // Panning far away: the old tiles are no longer wanted (their loads may be dropped).
        view.scrollView.contentOffset = Point(x: 5000, y: 4000)
        window.layoutIfNeeded()
        #expect(visible.allSatisfy { provider.wanted[$0] == nil })
        #expect(view.liveTileIDs.isDisjoint(with: visible))
    }

    @Test func resizingAtFitStaysAtFit() {
        let (window, view, _) = makeEmpty(width: 8000, height: 6000)
        #expect(abs(view.effectiveScale - 512.0 / 8000) < 1e-12)
        window.frame = Rect(x: 0, y: 0, width: 300, height: 600)
        view.frame = window.bounds
        window.layoutIfNeeded()
        #expect(abs(view.effectiveScale - 300.0 / 8000) < 1e-12)
        #expect(view.liveTileCount <= TileGrid.liveTileBound(viewport: Size(width: 300, height: 600), tileSize: 256))
    }
}

func pow2(_ n: Int) -> Double { ResolutionSnapper.power(n) }

/// Two fingers on a horizontal line around `centre`, `distance` apart (a pinch step).
func fingers(around centre: Point, apart distance: Double, _ phase: TouchPhase, at time: Double) -> [TouchEvent] {
    [TouchEvent(slot: 0, phase: phase, location: centre - Point(x: distance / 2, y: 0), timestamp: time),
     TouchEvent(slot: 1, phase: phase, location: centre + Point(x: distance / 2, y: 0), timestamp: time)]
}
