import Testing
import Graphics
import UI
@testable import Widgets

@Suite struct AlbumViewTests {
    @Test func theCentrePageItsNeighboursAndTheNextButOneAreWantedByDistance() {
        let h = AlbumHarness(count: 10, start: 5)
        let demands = h.provider.lastDemands
        #expect(Set(demands.keys) == Set(4...7))
        #expect(demands[5]?.distance == 0)
        #expect(demands[4]?.distance == 1 && demands[6]?.distance == 1)
        #expect(demands[7]?.distance == 2)
        #expect(demands.values.allSatisfy { $0.quality == .screen })
        // Opening at 5 never asked for the first photos.
        #expect(h.provider.demandHistory.allSatisfy { $0.keys.allSatisfy { (4...7).contains($0) } })
    }

    @Test func pagingBackPreloadsTwoPagesBackAndKeepsOneAhead() {
        let h = AlbumHarness(count: 10, start: 5)
        h.drag(from: Point(x: 100, y: 150), to: Point(x: 200, y: 150), duration: 0.066)
        h.settle()
        #expect(h.album.centerPageIndex == 4)
        let demands = h.provider.lastDemands
        #expect(Set(demands.keys) == Set(2...5))
        #expect(demands[2]?.distance == 2 && demands[3]?.distance == 1 && demands[5]?.distance == 1)
        // Forward again: the preload turns with it.
        h.drag(from: Point(x: 300, y: 150), to: Point(x: 200, y: 150), duration: 0.066)
        h.settle()
        #expect(h.album.centerPageIndex == 5)
        #expect(Set(h.provider.lastDemands.keys) == Set(4...7))
    }

    @Test func atEitherEndTheTwoPagesTowardsTheMiddleArePreloaded() {
        let last = AlbumHarness(count: 10, start: 9)
        #expect(Set(last.provider.lastDemands.keys) == Set(7...9))
        let first = AlbumHarness(count: 10, start: 0)
        first.album.setCenterPageIndex(1, animated: false)
        first.album.setCenterPageIndex(0, animated: false)
        #expect(Set(first.provider.lastDemands.keys) == Set(0...2))
    }

    @Test func pagingFastAcrossFiftyPhotosDropsEveryPhotoPassed() {
        let h = AlbumHarness(count: 50)
        for _ in 0..<49 {
            h.drag(from: Point(x: 300, y: 150), to: Point(x: 200, y: 150), duration: 0.066)
            for _ in 0..<20 { h.advance(by: AlbumHarness.frame) }
        }
        h.settle()
        #expect(h.album.centerPageIndex == 49)
        // Never more than one page behind and two ahead wanted at once, and everything passed
        // was let go.
        #expect(h.provider.demandHistory.allSatisfy { $0.count <= 4 })
        #expect(h.provider.dropped == Set(0...46))
        #expect(Set(h.provider.lastDemands.keys) == Set(47...49))
    }

    @Test func indicatorUsesDotsForFewPhotosAndTextForMany() {
        let few = AlbumHarness(count: 5, start: 1)
        #expect(few.album.indicator.usesDots)
        let many = AlbumHarness(count: 340, start: 11)
        #expect(!many.album.indicator.usesDots)
        #expect(many.album.indicator.text == "12 / 340")
        many.album.setCenterPageIndex(12, animated: false)
        #expect(many.album.indicator.text == "13 / 340")
    }

    @Test func indicatorAndCaptionFadeAfterAMomentAndReturnOnPageChange() {
        let h = AlbumHarness(count: 5, start: 1)
        #expect(h.album.isChromeVisible)
        #expect(h.album.caption.text == "photo1.jpg")
        for _ in 0..<150 { h.advance(by: AlbumHarness.frame) }
        #expect(!h.album.isChromeVisible)
        #expect(h.album.caption.alpha < 0.01)
        h.album.setCenterPageIndex(2, animated: false)
        #expect(h.album.isChromeVisible)
        #expect(h.album.caption.text == "photo2.jpg")
    }

    @Test func theDotsShowWhichPhotoIsCentred() {
        let h = AlbumHarness(count: 3, start: 1)
        let screen = h.render()
        let indicator = h.album.indicator
        // The middle dot is white, the others not.
        let p1 = indicator.convert(indicator.dotFrame(1).center, to: nil)
        let p0 = indicator.convert(indicator.dotFrame(0).center, to: nil)
        let y = Int(p1.y), x1 = Int(p1.x), x0 = Int(p0.x)
        #expect(screen.color(x: x1, y: y) == .white)
        #expect(screen.color(x: x0, y: y) != .white)
    }
}
