import Testing
import Graphics
import UI
@testable import Widgets

@Suite struct AlbumPagingTests {
    @Test func pagesSitTwentyPointsApartAndFillTheView() {
        let h = AlbumHarness(count: 5)
        #expect(h.pager.pageStride == 420)
        #expect(h.pager.scrollView.frame == Rect(x: -10, y: 0, width: 420, height: 300))
        #expect(h.pager.frame(ofPage: 1) == Rect(x: 430, y: 0, width: 400, height: 300))
        // Page 0 on screen exactly covers the view.
        let page = h.album.page(at: 0)!
        #expect(page.convert(page.bounds, to: nil) == Rect(x: 0, y: 0, width: 400, height: 300))
    }

    @Test func centrePageIsTheOneShowingMost() {
        #expect(PagingScrollView.centerPage(offset: 0, pageStride: 420, pageCount: 10) == 0)
        #expect(PagingScrollView.centerPage(offset: 209, pageStride: 420, pageCount: 10) == 0)
        #expect(PagingScrollView.centerPage(offset: 210, pageStride: 420, pageCount: 10) == 1)
        #expect(PagingScrollView.centerPage(offset: -300, pageStride: 420, pageCount: 10) == 0)
        #expect(PagingScrollView.centerPage(offset: 99_999, pageStride: 420, pageCount: 10) == 9)
    }

    @Test func slowShortDragStaysSlowLongDragPages() {
        let h = AlbumHarness(count: 10, start: 3)
        h.drag(from: Point(x: 300, y: 150), to: Point(x: 200, y: 150), duration: 1.0)
        h.settle()
        #expect(h.album.centerPageIndex == 3)
        #expect(h.pager.scrollView.contentOffset.x == 3 * 420)
        h.drag(from: Point(x: 350, y: 150), to: Point(x: 100, y: 150), duration: 1.0)
        h.settle()
        #expect(h.album.centerPageIndex == 4)
        #expect(h.pager.scrollView.contentOffset.x == 4 * 420)
    }

    @Test func shortFlickGoesToTheNextPageInItsDirection() {
        let h = AlbumHarness(count: 10, start: 3)
        h.drag(from: Point(x: 250, y: 150), to: Point(x: 190, y: 150), duration: 0.1)
        h.settle()
        #expect(h.album.centerPageIndex == 4)
        h.drag(from: Point(x: 150, y: 150), to: Point(x: 210, y: 150), duration: 0.1)
        h.settle()
        #expect(h.album.centerPageIndex == 3)
    }

    @Test func aHardFlickNeverSkipsAPage() {
        let h = AlbumHarness(count: 10, start: 3)
        h.drag(from: Point(x: 390, y: 150), to: Point(x: 10, y: 150), duration: 0.08)
        h.settle()
        #expect(h.album.centerPageIndex == 4)
    }

    @Test func theEdgesBounceBack() {
        let h = AlbumHarness(count: 3, start: 0)
        h.drag(from: Point(x: 50, y: 150), to: Point(x: 300, y: 150), duration: 0.3)
        h.settle()
        #expect(h.album.centerPageIndex == 0)
        #expect(h.pager.scrollView.contentOffset.x == 0)
    }

    @Test func atMostThreePagesLiveWhileFlickingThroughFifty() {
        let h = AlbumHarness(count: 50)
        var maxLive = 0, maxSubviews = 0
        var changes: [Int] = []
        h.album.onPageChange = { changes.append($0) }
        for _ in 0..<49 {
            h.touch(.began, Point(x: 300, y: 150))
            for i in 1...4 {
                h.advance(by: AlbumHarness.frame)
                h.touch(.moved, Point(x: 300 - Double(i) * 25, y: 150))
                maxLive = max(maxLive, h.pager.livePageIndices.count)
                maxSubviews = max(maxSubviews, h.pager.scrollView.subviews.count)
            }
            h.touch(.ended, Point(x: 200, y: 150))
            for _ in 0..<20 {
                h.advance(by: AlbumHarness.frame)
                maxLive = max(maxLive, h.pager.livePageIndices.count)
                maxSubviews = max(maxSubviews, h.pager.scrollView.subviews.count)
            }
        }
        h.settle()
        #expect(h.album.centerPageIndex == 49)
        #expect(maxLive <= 3)
        #expect(maxSubviews <= 3)
        #expect(h.pager.livePageIndices == [48, 49])
        #expect(changes == Array(1...49))
    }

    @Test func centrePageCanBeSetWithAndWithoutAnimation() {
        let h = AlbumHarness(count: 20)
        var changes: [Int] = []
        h.album.onPageChange = { changes.append($0) }
        h.album.setCenterPageIndex(12, animated: false)
        #expect(h.album.centerPageIndex == 12)
        #expect(h.pager.scrollView.contentOffset.x == 12 * 420)
        #expect(h.pager.livePageIndices == [11, 12, 13])
        h.album.setCenterPageIndex(13, animated: true)
        #expect(h.album.centerPageIndex == 12)
        h.settle()
        h.advance(by: 0.5)
        #expect(h.album.centerPageIndex == 13)
        #expect(h.pager.scrollView.contentOffset.x == 13 * 420)
        #expect(changes == [12, 13])
    }

    @Test func arrowKeysPage() {
        let h = AlbumHarness(count: 5, start: 2)
        #expect(h.window.dispatch(key: .right))
        h.advance(by: 0.5)
        #expect(h.album.centerPageIndex == 3)
        h.window.dispatch(key: .left)
        h.advance(by: 0.5)
        h.window.dispatch(key: .left)
        h.advance(by: 0.5)
        #expect(h.album.centerPageIndex == 1)
        h.window.dispatch(key: .escape)
        #expect(h.closed == 1)
    }

    @Test func resizeKeepsTheCentrePage() {
        let h = AlbumHarness(count: 10, start: 6)
        h.album.frame = Rect(x: 0, y: 0, width: 300, height: 400)
        h.window.layoutIfNeeded()
        #expect(h.album.centerPageIndex == 6)
        #expect(h.pager.scrollView.contentOffset.x == 6 * 320)
        #expect(h.album.page(at: 6)!.frame == Rect(x: 6 * 320 + 10, y: 0, width: 300, height: 400))
    }
}

@Suite struct AlbumPagingCatchTests {
    @Test func aTapDuringASnapFinishesTheSnapInsteadOfStoppingBetweenPages() {
        let h = AlbumHarness(count: 10)
        h.drag(from: Point(x: 300, y: 150), to: Point(x: 200, y: 150), duration: 0.066)
        for _ in 0..<5 { h.advance(by: AlbumHarness.frame) }
        #expect(h.pager.scrollView.contentOffset.x > 0 && h.pager.scrollView.contentOffset.x < 420)
        h.tap(Point(x: 200, y: 150))
        for _ in 0..<90 { h.advance(by: AlbumHarness.frame) }
        #expect(h.pager.scrollView.contentOffset.x == 420)
        #expect(h.album.centerPageIndex == 1)
    }

    @Test func fourFlicksASecondEachAdvanceAPage() {
        let h = AlbumHarness(count: 30)
        for _ in 0..<20 {
            h.drag(from: Point(x: 300, y: 150), to: Point(x: 200, y: 150), duration: 0.066)
            for _ in 0..<10 { h.advance(by: AlbumHarness.frame) }
        }
        for _ in 0..<90 { h.advance(by: AlbumHarness.frame) }
        #expect(h.album.centerPageIndex == 20)
        #expect(h.pager.scrollView.contentOffset.x == 20 * 420)
        #expect(h.pager.livePageIndices == [19, 20, 21])
    }

    @Test func aFlickBackDuringASnapReturnsOnePage() {
        let h = AlbumHarness(count: 10, start: 5)
        h.drag(from: Point(x: 300, y: 150), to: Point(x: 200, y: 150), duration: 0.066)
        for _ in 0..<5 { h.advance(by: AlbumHarness.frame) }
        h.drag(from: Point(x: 200, y: 150), to: Point(x: 300, y: 150), duration: 0.066)
        for _ in 0..<90 { h.advance(by: AlbumHarness.frame) }
        #expect(h.album.centerPageIndex == 5)
        #expect(h.pager.scrollView.contentOffset.x == 5 * 420)
    }
}
