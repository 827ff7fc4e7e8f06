import Testing
import Graphics
@testable import UI

/// The UIScrollView touch rules: delaysContentTouches × canCancelContentTouches.
@Suite struct TouchDeliveryTests {
    /// A vertical scroll view filling the window with a content view at (50,50 100x100).
    func makeScene(delays: Bool, cancels: Bool) -> (Harness, ScrollView, RecordingView) {
        let h = Harness()
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        scroll.contentSize = Size(width: 400, height: 2000)
        scroll.delaysContentTouches = delays
        scroll.canCancelContentTouches = cancels
        let content = RecordingView(frame: Rect(x: 50, y: 50, width: 100, height: 100))
        scroll.addSubview(content)
        h.window.addSubview(scroll)
        return (h, scroll, content)
    }

    /// Finger up by 40 points within 50 ms: a swipe.
    func quickSwipe(_ h: Harness, from p: Point = Point(x: 100, y: 100)) {
        h.drag(from: p, to: p + Point(x: 0, y: -40), duration: 0.05)
    }

    /// Finger held 200 ms, then dragged up 40 points.
    func holdThenDrag(_ h: Harness, from p: Point = Point(x: 100, y: 100)) {
        h.touch(.began, p)
        h.run(for: 0.2)
        for i in 1...4 {
            h.advance(by: Harness.frame)
            h.touch(.moved, p + Point(x: 0, y: Double(-10 * i)))
        }
        h.touch(.ended, p + Point(x: 0, y: -40))
    }

    @Test func delaysOnCancelsOn() {
        var (h, scroll, content) = makeScene(delays: true, cancels: true)
        quickSwipe(h)
        #expect(content.log.isEmpty)          // held back, then dropped: it was a scroll
        #expect(scroll.contentOffset.y > 0)

        (h, scroll, content) = makeScene(delays: true, cancels: true)
        holdThenDrag(h)
        #expect(content.log == ["began", "cancelled"])  // shown after 150 ms, taken back by the scroll
        #expect(scroll.contentOffset.y > 0)
    }

    @Test func delaysOnCancelsOff() {
        var (h, scroll, content) = makeScene(delays: true, cancels: false)
        quickSwipe(h)
        #expect(content.log.isEmpty)
        #expect(scroll.contentOffset.y > 0)

        (h, scroll, content) = makeScene(delays: true, cancels: false)
        holdThenDrag(h)
        #expect(content.log == ["began", "moved", "ended"])  // content tracks, no scroll
        #expect(scroll.contentOffset.y == 0)
    }

    @Test func delaysOffCancelsOn() {
        let (h, scroll, content) = makeScene(delays: false, cancels: true)
        h.touch(.began, Point(x: 100, y: 100))
        #expect(content.log == ["began"])     // at once
        h.advance(by: Harness.frame)
        h.touch(.moved, Point(x: 100, y: 95))
        h.advance(by: Harness.frame)
        h.touch(.moved, Point(x: 100, y: 70))
        h.touch(.ended, Point(x: 100, y: 70))
        #expect(content.log == ["began", "moved", "cancelled"])
        h.run(for: 0.1)  // the release was a flick
        #expect(scroll.contentOffset.y > 0)
    }

    @Test func delaysOffCancelsOff() {
        var (h, scroll, content) = makeScene(delays: false, cancels: false)
        quickSwipe(h)
        #expect(content.log == ["began", "moved", "ended"])
        #expect(scroll.contentOffset.y == 0)

        // Starting outside the content, the scroll view still scrolls.
        (h, scroll, content) = makeScene(delays: false, cancels: false)
        quickSwipe(h, from: Point(x: 300, y: 300))
        #expect(content.log.isEmpty)
        #expect(scroll.contentOffset.y > 0)
    }

    @Test func quickTapReachesDelayedContentAtLift() {
        let (h, scroll, content) = makeScene(delays: true, cancels: true)
        h.touch(.began, Point(x: 100, y: 100))
        h.advance(by: 0.05)
        #expect(content.log.isEmpty)
        h.touch(.ended, Point(x: 100, y: 100))
        #expect(content.log == ["began", "ended"])
        #expect(scroll.contentOffset == .zero)
        #expect(h.window.nextDeadline == nil)
    }

    @Test func touchOnAMovingScrollViewStopsItAndIsNotATap() {
        let (h, scroll, content) = makeScene(delays: true, cancels: true)
        quickSwipe(h, from: Point(x: 300, y: 300))
        #expect(scroll.isDecelerating)
        h.run(for: 0.1)
        h.tap(Point(x: 100, y: 100))
        #expect(!scroll.isDecelerating)
        let stopped = scroll.contentOffset
        h.run(for: 0.5)
        #expect(scroll.contentOffset == stopped)
        #expect(content.log.isEmpty)
        h.runUntilIdle()
        #expect(scroll.indicatorAlpha == 0)
        #expect(h.window.nextDeadline == nil)
    }

    @Test func exclusiveTouchBlocksOtherTouches() {
        let h = Harness()
        let a = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let b = RecordingView(frame: Rect(x: 200, y: 0, width: 100, height: 100))
        a.isExclusiveTouch = true
        h.window.addSubview(a)
        h.window.addSubview(b)
        h.touch(.began, Point(x: 50, y: 50), slot: 0)
        h.touch(.began, Point(x: 250, y: 50), slot: 1)
        h.touch(.moved, Point(x: 251, y: 50), slot: 1)
        h.touch(.ended, Point(x: 251, y: 50), slot: 1)
        #expect(b.log.isEmpty)
        h.touch(.ended, Point(x: 50, y: 50), slot: 0)
        #expect(a.log == ["began", "ended"])
        // And an exclusive view is not touched while another view is.
        h.touch(.began, Point(x: 250, y: 50), slot: 1)
        h.touch(.began, Point(x: 50, y: 50), slot: 0)
        h.touch(.ended, Point(x: 50, y: 50), slot: 0)
        h.touch(.ended, Point(x: 250, y: 50), slot: 1)
        #expect(a.log == ["began", "ended"])
        #expect(b.log == ["began", "ended"])
    }

    @Test func downAndUpInOneFrameIsStillATap() {
        let h = Harness()
        let view = RecordingView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        h.window.addSubview(view)
        var taps = 0
        view.addGestureRecognizer(TapGestureRecognizer { _ in taps += 1 })
        h.touches([(.began, Point(x: 10, y: 10), 0), (.ended, Point(x: 10, y: 10), 0)])
        #expect(taps == 1)
        #expect(view.log == ["began", "cancelled"])  // the recognized tap takes the touch
    }

    @Test func exclusiveViewAcceptsMoreFingersOfItsOwn() {
        let h = Harness()
        let a = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        a.isExclusiveTouch = true
        h.window.addSubview(a)
        h.touch(.began, Point(x: 10, y: 10), slot: 0)
        h.touch(.began, Point(x: 60, y: 60), slot: 1)
        #expect(h.window.activeTouches.count == 2)
    }

    @Test func touchesKeepTheirIdentityPerSlot() throws {
        let h = Harness()
        h.touches([(.began, Point(x: 10, y: 10), 0), (.began, Point(x: 200, y: 200), 3)])
        let first = h.window.activeTouches
        #expect(first.map(\.slot) == [0, 3])
        h.touches([(.moved, Point(x: 12, y: 10), 0), (.moved, Point(x: 205, y: 200), 3)])
        let second = h.window.activeTouches
        #expect(zip(first, second).allSatisfy { $0 === $1 })
        #expect(second[0].location == Point(x: 12, y: 10))
        #expect(second[0].previousLocation == Point(x: 10, y: 10))
        h.touch(.ended, Point(x: 12, y: 10), slot: 0)
        h.touch(.began, Point(x: 50, y: 50), slot: 0)
        let reused = try #require(h.window.activeTouches.first { $0.slot == 0 })
        #expect(reused !== first[0])
        #expect(reused.id > first[1].id)
    }
}
