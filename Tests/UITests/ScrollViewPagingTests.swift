import Testing
import Graphics
@testable import UI

/// A paging scroll view caught in motion by a finger: the touch's lift or flick counts from the
/// page the view was heading to, as in UIKit.
@Suite struct ScrollViewPagingTests {
    static let page = 400.0

    func makePager(pages: Int = 10, start: Int = 0) -> (Harness, ScrollView, DelegateLog) {
        let h = Harness()
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: Self.page, height: 400))
        scroll.isPagingEnabled = true
        scroll.contentSize = Size(width: Double(pages) * Self.page, height: 400)
        scroll.contentOffset = Point(x: Double(start) * Self.page, y: 0)
        let log = DelegateLog()
        scroll.delegate = log
        h.window.addSubview(scroll)
        return (h, scroll, log)
    }

    /// A quick horizontal flick: 100 pt in four frames (about 1500 pt/s).
    func flick(_ h: Harness, forward: Bool) {
        let a = Point(x: 250, y: 200), b = Point(x: forward ? 150 : 350, y: 200)
        h.drag(from: a, to: b, duration: 4 * Harness.frame)
    }

    /// `times` forward flicks `framesApart` frames apart, then the view comes to rest.
    func flickForward(_ h: Harness, times: Int, framesApart: Double) {
        for _ in 0..<times {
            flick(h, forward: true)
            h.run(for: framesApart * Harness.frame)
        }
        h.runUntilIdle()
    }

    func page(of scroll: ScrollView) -> Double { scroll.contentOffset.x / Self.page }

    @Test func aTapDuringASnapFinishesTheSnap() {
        let (h, scroll, log) = makePager()
        flick(h, forward: true)
        h.run(for: 5 * Harness.frame)
        #expect(scroll.contentOffset.x > 0 && scroll.contentOffset.x < Self.page)
        h.touch(.began, Point(x: 200, y: 200))
        let caught = scroll.contentOffset.x
        h.advance(by: 0.05)
        #expect(scroll.contentOffset.x == caught)
        #expect(!scroll.isMoving)
        log.events.removeAll()
        h.touch(.ended, Point(x: 200, y: 200))
        #expect(scroll.isDecelerating)
        h.runUntilIdle()
        #expect(scroll.contentOffset.x == Self.page)
        #expect(log.events == ["didEndDecelerating"])
    }

    @Test func aLongHoldDuringASnapStillLandsOnAPage() {
        let (h, scroll, _) = makePager(start: 3)
        flick(h, forward: false)
        h.run(for: 3 * Harness.frame)
        h.tap(Point(x: 200, y: 200), hold: 2)
        h.runUntilIdle()
        #expect(scroll.contentOffset.x == 2 * Self.page)
    }

    @Test func aTapDuringASlowReleaseReturnsToThePageItWasGoingBackTo() {
        let (h, scroll, _) = makePager(start: 2)
        // 120 pt slowly: less than half a page, so the release springs back to page 2.
        h.drag(from: Point(x: 300, y: 200), to: Point(x: 180, y: 200), duration: 1)
        h.run(for: 2 * Harness.frame)
        #expect(scroll.isMoving)
        h.tap(Point(x: 200, y: 200))
        h.runUntilIdle()
        #expect(scroll.contentOffset.x == 2 * Self.page)
    }

    @Test func fourFlicksASecondEachAdvanceAPage() {
        let (h, scroll, _) = makePager()
        for _ in 0..<4 {
            let start = h.now
            flick(h, forward: true)
            h.run(for: 0.25 - (h.now - start))
            // Each flick interrupts the previous snap before it arrives.
            #expect(scroll.isMoving)
        }
        h.runUntilIdle()
        #expect(scroll.contentOffset.x == 4 * Self.page)
    }

    @Test func flicksEveryOtherFrameStillCountOnePageEach() {
        let (h, scroll, _) = makePager(pages: 20)
        flickForward(h, times: 6, framesApart: 2)
        #expect(scroll.contentOffset.x == 6 * Self.page)
    }

    @Test func aFlickBackDuringASnapReturnsToTheStartPage() {
        let (h, scroll, _) = makePager()
        flick(h, forward: true)
        h.advance(by: Harness.frame)
        #expect(scroll.contentOffset.x > 0 && scroll.contentOffset.x < Self.page / 2)
        flick(h, forward: false)
        h.runUntilIdle()
        #expect(scroll.contentOffset.x == 0)
    }

    @Test func aFlickBackLateInASnapReturnsOnePage() {
        let (h, scroll, _) = makePager(start: 5)
        flick(h, forward: true)
        h.run(for: 10 * Harness.frame)
        #expect(page(of: scroll) > 5.5 && page(of: scroll) < 6)
        flick(h, forward: false)
        h.runUntilIdle()
        #expect(scroll.contentOffset.x == 5 * Self.page)
    }

    @Test func flicksDuringASnapStopAtTheLastPage() {
        let (h, scroll, _) = makePager(pages: 3, start: 1)
        flickForward(h, times: 3, framesApart: 3)
        #expect(scroll.contentOffset.x == 2 * Self.page)
    }

    @Test func aFlickAfterTheSnapArrivedCountsFromTheNewPageOnly() {
        let (h, scroll, _) = makePager()
        flick(h, forward: true)
        h.runUntilIdle()
        #expect(scroll.contentOffset.x == Self.page)
        // Drag half a page forward from rest and flick back: back to the page it started on.
        h.drag(from: Point(x: 300, y: 200), to: Point(x: 150, y: 200), duration: 1, lift: false)
        h.drag(from: Point(x: 150, y: 200), to: Point(x: 200, y: 200), duration: 4 * Harness.frame)
        h.runUntilIdle()
        #expect(scroll.contentOffset.x == Self.page)
    }

    @Test func aTapThatCatchesAnOverscrolledViewLetsItSpringBack() {
        let (h, scroll) = makeScroll(content: Size(width: 400, height: 2000))
        // Pull past the top and let go: it springs back; a tap catches it on the way.
        h.drag(from: Point(x: 200, y: 100), to: Point(x: 200, y: 300), duration: 0.5)
        h.advance(by: Harness.frame)
        #expect(scroll.contentOffset.y < -1)
        h.tap(Point(x: 200, y: 200))
        h.runUntilIdle()
        #expect(scroll.contentOffset.y == 0)
    }

    @Test func aTapThatCatchesAFlingInsideTheContentLeavesItThere() {
        let (h, scroll) = makeScroll(content: Size(width: 400, height: 100_000))
        h.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 230), duration: 0.1)
        h.run(for: 0.2)
        h.tap(Point(x: 200, y: 200))
        let caught = scroll.contentOffset.y
        h.runUntilIdle()
        #expect(scroll.contentOffset.y == caught)
        #expect(!scroll.isMoving)
    }
}

@Suite struct PageSnapHeadingTests {
    @Test func withoutAHeadingTheDragCountsFromThePageNearestItsStart() {
        #expect(PageSnap.targetPage(offset: 1000, pageSize: 400, velocity: -900, dragStart: 810, heading: nil, pageCount: 5) == 2)
        #expect(PageSnap.targetPage(offset: 2100, pageSize: 400, velocity: 5000, dragStart: 810, heading: nil, pageCount: 10) == 3)
    }

    @Test func aCaughtSnapCountsFromItsPage() {
        // Caught at 0.3 on the way to page 1: a forward flick goes to 2, a back flick to 0.
        #expect(PageSnap.targetPage(offset: 150, pageSize: 400, velocity: 900, dragStart: 120, heading: 1, pageCount: 5) == 2)
        #expect(PageSnap.targetPage(offset: 90, pageSize: 400, velocity: -900, dragStart: 120, heading: 1, pageCount: 5) == 0)
        // A slow release (or a lift) finishes the snap.
        #expect(PageSnap.targetPage(offset: 125, pageSize: 400, velocity: 0, dragStart: 120, heading: 1, pageCount: 5) == 1)
        // Never past the ends.
        #expect(PageSnap.targetPage(offset: 1550, pageSize: 400, velocity: 900, dragStart: 1500, heading: 4, pageCount: 5) == 4)
    }
}
