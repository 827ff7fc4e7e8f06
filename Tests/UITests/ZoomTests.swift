import Testing
import Graphics
@testable import UI

@Suite struct ZoomTests {
    /// 400x400 scroll view zooming a 1000x1000 content view, scale 0.25…4, at 1 and offset (300,300).
    func makeZoom() -> (Harness, ScrollView, View, DelegateLog) {
        let h = Harness()
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let content = View(frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        scroll.addSubview(content)
        scroll.viewForZooming = content
        scroll.minimumZoomScale = 0.25
        scroll.maximumZoomScale = 4
        scroll.contentOffset = Point(x: 300, y: 300)
        let log = DelegateLog()
        scroll.delegate = log
        h.window.addSubview(scroll)
        return (h, scroll, content, log)
    }

    /// Two fingers around `centre`, `start` apart, spreading to `end` apart while the centre
    /// moves by `shift`, one frame per step.
    func pinch(_ h: Harness, centre: Point, start: Double, end: Double, shift: Point = .zero, steps: Int = 12, lift: Bool = true) {
        func points(_ d: Double, _ c: Point) -> (Point, Point) {
            (c - Point(x: d / 2, y: 0), c + Point(x: d / 2, y: 0))
        }
        let (a0, b0) = points(start, centre)
        h.touches([(.began, a0, 0), (.began, b0, 1)])
        var last = (a0, b0)
        for i in 1...steps {
            h.advance(by: Harness.frame)
            let f = Double(i) / Double(steps)
            last = points(start + (end - start) * f, centre + shift * f)
            h.touches([(.moved, last.0, 0), (.moved, last.1, 1)])
        }
        if lift { h.touches([(.ended, last.0, 0), (.ended, last.1, 1)]) }
    }

    @Test func pinchKeepsTheContentPointUnderTheFingers() {
        let (h, scroll, content, log) = makeZoom()
        let centre = Point(x: 200, y: 180)
        // The content point under the fingers' centroid when the pinch begins (after its
        // hysteresis) must stay under the centroid while the fingers spread and move.
        var anchor: Point?
        scroll.pinchGestureRecognizer.addAction { r in
            if r.state == .began { anchor = content.convert(r.location(in: nil), from: nil) }
        }
        pinch(h, centre: centre, start: 100, end: 220, shift: Point(x: 15, y: -25), lift: false)
        let a = try! #require(anchor)
        #expect(scroll.isZooming)
        #expect(scroll.zoomScale > 1.8 && scroll.zoomScale < 2.2)
        // The point first under the fingers is under their centroid now.
        #expect(close(content.convert(a, to: nil), centre + Point(x: 15, y: -25), 1e-6))
        #expect(close(scroll.contentSize.width, 1000 * scroll.zoomScale, 1e-9))
        h.touches([(.ended, Point(x: 105, y: 155), 0), (.ended, Point(x: 325, y: 155), 1)])
        h.runUntilIdle()
        #expect(Set(log.events.prefix(2)) == ["willBeginDragging", "willBeginZooming"])
        #expect(log.events.suffix(2) == ["didEndDragging(false)", "didEndZooming"])
    }

    @Test func pinchPastTheMaximumSpringsBack() {
        let (h, scroll, content, log) = makeZoom()
        scroll.maximumZoomScale = 1.5
        let centre = Point(x: 200, y: 200)
        let anchor = content.convert(centre, from: nil)
        pinch(h, centre: centre, start: 60, end: 240, lift: false)   // asks for ≈ 4x
        let peak = scroll.zoomScale
        #expect(peak > 1.5 && peak < 3)                               // rubber-banded
        h.touches([(.ended, Point(x: 80, y: 200), 0), (.ended, Point(x: 320, y: 200), 1)])
        var scales: [Double] = []
        while h.window.nextDeadline != nil && scales.count < 600 {
            h.advance(by: Harness.frame)
            scales.append(scroll.zoomScale)
        }
        #expect(scroll.zoomScale == 1.5)
        #expect(scales.allSatisfy { $0 >= 1.5 - 1e-9 })
        #expect(close(content.convert(anchor, to: nil), centre, 1e-6))
        #expect(log.events.last == "didEndZooming")
    }

    @Test func animatedSetZoomScaleKeepsTheCentre() {
        let (h, scroll, content, _) = makeZoom()
        let centre = content.convert(Point(x: 200, y: 200), from: nil)
        scroll.setZoomScale(2, animated: true)
        h.run(for: 0.15)
        #expect(scroll.zoomScale > 1 && scroll.zoomScale < 2)
        h.runUntilIdle()
        #expect(scroll.zoomScale == 2)
        #expect(close(content.convert(centre, to: nil), Point(x: 200, y: 200), 1e-6))
        scroll.setZoomScale(10, animated: false)
        #expect(scroll.zoomScale == 4)
    }

    @Test func zoomToRectFillsTheView() {
        let (h, scroll, content, _) = makeZoom()
        scroll.zoom(to: Rect(x: 600, y: 100, width: 200, height: 200), animated: true)
        h.runUntilIdle()
        #expect(scroll.zoomScale == 2)
        #expect(close(content.convert(Point(x: 600, y: 100), to: nil), .zero, 1e-6))
        #expect(close(content.convert(Point(x: 800, y: 300), to: nil), Point(x: 400, y: 400), 1e-6))
    }

    @Test func smallContentIsCentred() {
        let (_, scroll, content, _) = makeZoom()
        scroll.setZoomScale(0.25, animated: false)
        #expect(scroll.contentSize == Size(width: 250, height: 250))
        #expect(scroll.contentOffset == .zero)
        #expect(content.frame == Rect(x: 75, y: 75, width: 250, height: 250))
        #expect(content.convert(Point(x: 500, y: 500), to: nil) == Point(x: 200, y: 200))
    }

    @Test func setZoomScaleCanBeReplaced() {
        let (_, scroll, _, _) = makeZoom()
        var calls: [(Double, Bool)] = []
        scroll.setZoomScaleHandler = { view, scale, animated in
            calls.append((scale, animated))
            view.performSetZoomScale(scale, animated: animated)
        }
        scroll.setZoomScale(3, animated: false)
        #expect(calls.count == 1 && calls[0].0 == 3 && !calls[0].1)
        #expect(scroll.zoomScale == 3)
        // Re-basing keeps the picture: content twice as large at half the scale.
        let offset = scroll.contentOffset
        scroll.viewForZooming!.bounds.size = Size(width: 2000, height: 2000)
        scroll.setZoomScaleInPlace(1.5)
        #expect(scroll.contentOffset == offset)
        #expect(scroll.contentSize == Size(width: 3000, height: 3000))
    }

    @Test func zoomingWithoutAWindowJumps() {
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let content = View(frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        scroll.addSubview(content)
        scroll.viewForZooming = content
        scroll.maximumZoomScale = 3
        scroll.setZoomScale(2, animated: true)
        #expect(scroll.zoomScale == 2)
    }
}
