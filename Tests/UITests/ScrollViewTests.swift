import Testing
import Glibc
import Graphics
@testable import UI

final class DelegateLog: ScrollViewDelegate {
    var events: [String] = []
    func scrollViewWillBeginDragging(_ scrollView: ScrollView) { events.append("willBeginDragging") }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate: Bool) { events.append("didEndDragging(\(willDecelerate))") }
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView) { events.append("didEndDecelerating") }
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) { events.append("didEndScrollingAnimation") }
    func scrollViewWillBeginZooming(_ scrollView: ScrollView) { events.append("willBeginZooming") }
    func scrollViewDidEndZooming(_ scrollView: ScrollView, atScale scale: Double) { events.append("didEndZooming") }
}

@Suite struct ScrollViewTests {
    @Test func flingFollowsTheDecelerationCurveAndStopsAtItsRestPoint() {
        let (h, scroll) = makeScroll(content: Size(width: 400, height: 100_000))
        let delegateLog = DelegateLog()
        scroll.delegate = delegateLog
        // Finger up at 1200 pt/s for 0.1 s: content scrolls down (offset grows) at 1200 pt/s.
        h.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 230), duration: 0.1)
        #expect(delegateLog.events == ["willBeginDragging", "didEndDragging(true)"])
        let x0 = scroll.contentOffset.y
        let t0 = h.now
        let k = 1000 * log(0.998)
        for _ in 0..<60 {
            h.advance(by: Harness.frame)
            let t = h.now - t0
            #expect(close(scroll.contentOffset.y, x0 + 1200 * (pow(0.998, 1000 * t) - 1) / k, 1e-6))
        }
        while scroll.isDecelerating { h.advance(by: Harness.frame) }
        let took = h.now - t0
        // The rest point of the curve, rounded to a whole pixel.
        #expect(scroll.contentOffset.y == (x0 - 1200 / k).rounded())
        #expect(abs(took - DecelerationCurve(start: 0, velocity: 1200).duration()) <= Harness.frame + 1e-9)
        h.runUntilIdle()  // the indicators fade
        #expect(delegateLog.events.last == "didEndDecelerating")
        #expect(h.window.nextDeadline == nil)
        #expect(scroll.contentOffset.x == 0)
    }

    @Test func fastRateStopsSooner() {
        let (h, scroll) = makeScroll(content: Size(width: 400, height: 100_000))
        scroll.decelerationRate = DecelerationCurve.fastRate
        h.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 230), duration: 0.1)
        let x0 = scroll.contentOffset.y
        h.runUntilIdle()
        #expect(scroll.contentOffset.y == (x0 - 1200 / (1000 * log(0.99))).rounded())
    }

    @Test func draggingPastTheEdgeRubberBandsAndSpringsBack() {
        let (h, scroll) = makeScroll(content: Size(width: 400, height: 1000))
        // Pull down 110 points from the top: 10 for the threshold, 100 of overshoot.
        h.drag(from: Point(x: 200, y: 100), to: Point(x: 200, y: 210), duration: 11 * Harness.frame, lift: false)
        let expected = -RubberBand(dimension: 400).distance(forOvershoot: 100)
        #expect(close(scroll.contentOffset.y, -expected * -1, 1e-9))
        #expect(close(scroll.contentOffset.y, -48.3516, 1e-4))
        // Rest, then lift without velocity: the spring pulls it back without overshoot.
        h.run(for: 0.2)
        h.touch(.ended, Point(x: 200, y: 210))
        var offsets: [Double] = []
        while h.window.nextDeadline != nil && offsets.count < 600 {
            h.advance(by: Harness.frame)
            offsets.append(scroll.contentOffset.y)
        }
        #expect(offsets.allSatisfy { $0 <= 0 })
        #expect(offsets == offsets.sorted())
        #expect(scroll.contentOffset.y == 0)
        #expect(Double(offsets.count) * Harness.frame < 1.0)
    }

    @Test func catchingABounceContinuesWithoutAJump() {
        let (h, scroll) = makeScroll(content: Size(width: 400, height: 1000))
        h.drag(from: Point(x: 200, y: 100), to: Point(x: 200, y: 210), duration: 11 * Harness.frame, lift: false)
        h.run(for: 0.2)
        h.touch(.ended, Point(x: 200, y: 210))
        h.run(for: 3 * Harness.frame)
        let caught = scroll.contentOffset.y
        #expect(caught < -10)
        // Catch it and pull further down: it must go further out, smoothly.
        h.touch(.began, Point(x: 200, y: 100))
        #expect(scroll.contentOffset.y == caught)
        var previous = caught
        for i in 1...4 {
            h.advance(by: Harness.frame)
            h.touch(.moved, Point(x: 200, y: 100 + Double(i) * 5))
            #expect(scroll.contentOffset.y <= previous)
            #expect(previous - scroll.contentOffset.y < 5)
            previous = scroll.contentOffset.y
        }
        #expect(scroll.contentOffset.y < caught)
        h.touch(.ended, Point(x: 200, y: 120))
    }

    @Test func flingIntoTheEdgeBouncesBackWithoutOvershoot() {
        let (h, scroll) = makeScroll(content: Size(width: 400, height: 1000))
        scroll.contentOffset = Point(x: 0, y: 500)
        h.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 200), duration: 0.1)  // 1500 pt/s
        var offsets: [Double] = []
        while h.window.nextDeadline != nil && offsets.count < 600 {
            h.advance(by: Harness.frame)
            offsets.append(scroll.contentOffset.y)
        }
        let peak = offsets.max()!
        #expect(peak > 600)                           // went past the bottom edge
        #expect(peak < 600 + 400)                     // but not far
        let afterPeak = offsets.drop { $0 < peak }
        #expect(afterPeak.allSatisfy { $0 >= 600 })   // and came back without crossing it
        #expect(Array(afterPeak) == afterPeak.sorted(by: >))
        #expect(scroll.contentOffset.y == 600)
    }

    @Test func withoutBouncesTheFlingStopsAtTheEdge() {
        let (h, scroll) = makeScroll(content: Size(width: 400, height: 1000))
        scroll.bounces = false
        scroll.contentOffset = Point(x: 0, y: 500)
        h.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 200), duration: 0.1)
        var maxSeen = 0.0
        while h.window.nextDeadline != nil {
            h.advance(by: Harness.frame)
            maxSeen = max(maxSeen, scroll.contentOffset.y)
        }
        #expect(maxSeen == 600)
        #expect(scroll.contentOffset.y == 600)
    }

    @Test func pagingFlickGoesToTheNextPage() {
        let (h, scroll) = makeScroll(content: Size(width: 2000, height: 400))
        scroll.isPagingEnabled = true
        // 80 points in 0.1 s (800 pt/s): less than half a page, but a flick.
        h.drag(from: Point(x: 300, y: 200), to: Point(x: 220, y: 200), duration: 0.1)
        h.runUntilIdle()
        #expect(scroll.contentOffset.x == 400)
        // A slow drag of the same distance returns.
        h.drag(from: Point(x: 300, y: 200), to: Point(x: 220, y: 200), duration: 0.1, lift: false)
        h.run(for: 0.2)
        h.touch(.ended, Point(x: 220, y: 200))
        h.runUntilIdle()
        #expect(scroll.contentOffset.x == 400)
        // More than half without a flick goes on.
        h.drag(from: Point(x: 390, y: 200), to: Point(x: 100, y: 200), duration: 0.3, lift: false)
        h.run(for: 0.2)
        h.touch(.ended, Point(x: 100, y: 200))
        h.runUntilIdle()
        #expect(scroll.contentOffset.x == 800)
    }

    @Test func animatedOffsetAndScrollRectToVisible() {
        let (h, scroll) = makeScroll(content: Size(width: 400, height: 3000))
        let log = DelegateLog()
        scroll.delegate = log
        scroll.setContentOffset(Point(x: 0, y: 1000), animated: true)
        h.run(for: 0.15)
        #expect(scroll.contentOffset.y > 0 && scroll.contentOffset.y < 1000)
        h.runUntilIdle()
        #expect(scroll.contentOffset.y == 1000)
        #expect(log.events == ["didEndScrollingAnimation"])
        scroll.scrollRectToVisible(Rect(x: 0, y: 1500, width: 10, height: 100), animated: false)
        #expect(scroll.contentOffset.y == 1200)
        scroll.scrollRectToVisible(Rect(x: 0, y: 1300, width: 10, height: 10), animated: false)
        #expect(scroll.contentOffset.y == 1200)
        scroll.scrollRectToVisible(Rect(x: 0, y: 100, width: 10, height: 10), animated: false)
        #expect(scroll.contentOffset.y == 100)
    }

    @Test func contentInsetWidensTheRange() {
        let (_, scroll) = makeScroll(content: Size(width: 400, height: 1000))
        scroll.contentInset = EdgeInsets(top: 50, left: 0, bottom: 20, right: 0)
        #expect(scroll.minimumContentOffset == Point(x: 0, y: -50))
        #expect(scroll.maximumContentOffset == Point(x: 0, y: 620))
        #expect(scroll.clampedOffset(Point(x: 30, y: -90)) == Point(x: 0, y: -50))
    }

    @Test func indicatorsShowWhileScrollingAndFadeAfter() {
        let (h, scroll) = makeScroll(content: Size(width: 400, height: 4000))
        h.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 250), duration: 0.1, lift: false)
        #expect(scroll.indicatorAlpha == 1)
        let v = try! #require(scroll.indicatorRects.vertical)
        #expect(v.minX > 390 && close(v.height, max(36, (400 - 9) * 400 / 4000)))
        #expect(scroll.indicatorRects.horizontal == nil)
        h.run(for: 0.2)
        h.touch(.ended, Point(x: 200, y: 250))
        h.runUntilIdle()
        #expect(scroll.indicatorAlpha == 0)
    }
}

@Suite struct BounceAxisTests {
    @Test func smallContentMovesOnlyWithAlwaysBounce() {
        let (h, scroll) = makeScroll(content: Size(width: 400, height: 300))
        h.drag(from: Point(x: 200, y: 100), to: Point(x: 200, y: 200), duration: 0.1, lift: false)
        #expect(scroll.contentOffset == .zero)
        h.touch(.ended, Point(x: 200, y: 200))
        h.runUntilIdle()

        scroll.alwaysBounceVertical = true
        h.drag(from: Point(x: 200, y: 100), to: Point(x: 200, y: 200), duration: 0.1, lift: false)
        #expect(scroll.contentOffset.y < -20)
        h.touch(.ended, Point(x: 200, y: 200))
        h.runUntilIdle()
        #expect(scroll.contentOffset == .zero)
    }

    @Test func scrollDisabledDoesNotScroll() {
        let (h, scroll) = makeScroll(content: Size(width: 400, height: 3000))
        scroll.isScrollEnabled = false
        h.drag(from: Point(x: 200, y: 300), to: Point(x: 200, y: 100), duration: 0.1)
        h.runUntilIdle()
        #expect(scroll.contentOffset == .zero)
    }
}

@Suite struct ScrollViewLifetimeTests {
    @Test func removingAMovingScrollViewLeavesTheClockIdle() {
        let h = Harness()
        weak var weakScroll: ScrollView?
        do {
            let (_, scroll) = makeScroll(content: Size(width: 400, height: 10_000), in: h)
            h.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 150), duration: 0.1)
            scroll.setZoomScale(1, animated: true)
            #expect(scroll.isDecelerating)
            scroll.removeFromSuperview()
            weakScroll = scroll
        }
        #expect(weakScroll == nil)
        h.runUntilIdle(limit: 5)
        #expect(h.window.nextDeadline == nil)
    }
}
