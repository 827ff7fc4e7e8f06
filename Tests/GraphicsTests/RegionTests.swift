import Graphics
import Testing

@Suite struct RegionTests {
    let bounds = PixelRect(x: 0, y: 0, width: 200, height: 100)

    @Test func containsIsInclusiveOfTheEdgesAndExclusiveBeyond() {
        let r = PixelRect(x: 10, y: 10, width: 20, height: 20)
        #expect(r.contains(r) && r.contains(PixelRect(x: 29, y: 29, width: 1, height: 1)))
        #expect(!r.contains(PixelRect(x: 29, y: 29, width: 2, height: 1)))
        #expect(!r.contains(PixelRect(x: 9, y: 10, width: 5, height: 5)))
    }

    @Test func neighboursMergeAndFarApartChangesStaySeparate() {
        var region = Region(bounds: bounds)
        region.add(PixelRect(x: 0, y: 0, width: 10, height: 10))
        region.add(PixelRect(x: 10, y: 0, width: 10, height: 10))
        #expect(region.rects == [PixelRect(x: 0, y: 0, width: 20, height: 10)])
        region.add(PixelRect(x: 190, y: 90, width: 10, height: 10))
        #expect(region.rects.count == 2 && region.area == 300)
        #expect(region.covers(PixelRect(x: 5, y: 5, width: 10, height: 5)))
        #expect(!region.covers(PixelRect(x: 15, y: 5, width: 10, height: 10)))
    }

    @Test func theLimitMergesTheCheapestPairAndKeepsEverythingCovered() {
        var region = Region(bounds: bounds, maxRects: 2)
        // Far enough apart not to merge when added; the two nearest merge at the limit.
        let squares = [PixelRect(x: 0, y: 0, width: 20, height: 20), PixelRect(x: 100, y: 60, width: 20, height: 20),
                       PixelRect(x: 150, y: 60, width: 20, height: 20)]
        region.add(squares)
        #expect(region.rects == [PixelRect(x: 0, y: 0, width: 20, height: 20), PixelRect(x: 100, y: 60, width: 70, height: 20)])
        #expect(Region.full(bounds).rects == [bounds])
    }

    @Test func shiftMovesDamageInsideTheAreaOnly() {
        var region = Region(bounds: bounds)
        region.add(PixelRect(x: 10, y: 10, width: 5, height: 5))
        region.add(PixelRect(x: 150, y: 10, width: 5, height: 5))
        region.shift(within: PixelRect(x: 0, y: 0, width: 100, height: 100), dx: 0, dy: 20)
        #expect(Set(region.rects) == [PixelRect(x: 10, y: 30, width: 5, height: 5), PixelRect(x: 150, y: 10, width: 5, height: 5)])
    }
}
