import Testing
import Graphics
@testable import UI

@Suite struct NestedScrollTests {
    /// A horizontal paging scroll view of 3 pages, the middle page a vertical scroll view.
    func makeScene() -> (Harness, ScrollView, ScrollView) {
        let h = Harness()
        let pager = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        pager.isPagingEnabled = true
        pager.contentSize = Size(width: 1200, height: 400)
        pager.contentOffset = Point(x: 400, y: 0)
        let page = ScrollView(frame: Rect(x: 400, y: 0, width: 400, height: 400))
        page.contentSize = Size(width: 400, height: 3000)
        pager.addSubview(page)
        h.window.addSubview(pager)
        return (h, pager, page)
    }

    @Test func verticalDragScrollsTheInnerView() {
        let (h, pager, page) = makeScene()
        h.drag(from: Point(x: 200, y: 300), to: Point(x: 205, y: 150), duration: 0.15)
        h.runUntilIdle()
        #expect(page.contentOffset.y > 100)
        #expect(pager.contentOffset.x == 400)
    }

    @Test func horizontalDragPagesTheOuterView() {
        let (h, pager, page) = makeScene()
        h.drag(from: Point(x: 300, y: 200), to: Point(x: 150, y: 205), duration: 0.15)
        h.runUntilIdle()
        #expect(pager.contentOffset.x == 800)
        #expect(page.contentOffset.y == 0)
    }

    @Test func zoomedPageAtItsEdgeLetsThePagerTakeTheSwipe() {
        let (h, pager, page) = makeScene()
        page.contentSize = Size(width: 800, height: 800)   // zoomed-in photo, at its left edge
        // Towards the edge it already touches: the pager goes back a page.
        h.drag(from: Point(x: 100, y: 200), to: Point(x: 250, y: 205), duration: 0.15)
        h.runUntilIdle()
        #expect(pager.contentOffset.x == 0)
        #expect(page.contentOffset.x == 0)
        // Away from the edge: the photo scrolls, the pager stays.
        pager.contentOffset.x = 400
        h.drag(from: Point(x: 300, y: 200), to: Point(x: 200, y: 205), duration: 0.15)
        h.runUntilIdle()
        #expect(pager.contentOffset.x == 400)
        #expect(page.contentOffset.x > 90)
    }

    @Test func scrollingAnInnerViewDamagesOnlyItsArea() {
        let h = Harness()
        let scroll = ScrollView(frame: Rect(x: 100, y: 100, width: 100, height: 100))
        scroll.contentSize = Size(width: 100, height: 1000)
        scroll.showsVerticalScrollIndicator = false
        h.window.addSubview(scroll)
        let bitmap = Bitmap(width: 400, height: 400)
        h.window.render(into: Canvas(target: bitmap))
        scroll.contentOffset = Point(x: 0, y: 50)
        #expect(h.window.pendingDamage == [PixelRect(x: 100, y: 100, width: 100, height: 100)])
    }
}
