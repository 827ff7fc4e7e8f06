import Graphics
import Testing
@testable import Platform

@Suite("Damage per scanout buffer")
struct DamageTrackerTests {
    let screen = PixelRect(x: 0, y: 0, width: 100, height: 50)

    @Test func newBuffersNeedEverything() {
        var t = DamageTracker(bufferCount: 2, bounds: screen)
        #expect(t.take(for: 0) == [screen])
        #expect(t.take(for: 1) == [screen])
        #expect(t.isClean(0) && t.isClean(1))
    }

    @Test func backBufferGetsThisAndThePreviousFramesDamage() {
        var t = DamageTracker(bufferCount: 2, bounds: screen)
        _ = t.take(for: 0); _ = t.take(for: 1)
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10)
        let b = PixelRect(x: 50, y: 20, width: 5, height: 5)
        t.add([a])                        // frame 1 goes to buffer 1
        #expect(t.take(for: 1) == [a])
        t.add([b])                        // frame 2 goes to buffer 0, which never saw frame 1
        #expect(t.take(for: 0) == [a, b])
        t.add([])                         // nothing changed: buffer 1 only lacks frame 2
        #expect(t.take(for: 1) == [b])
    }

    @Test func damageIsClippedToTheScreenAndEmptyRectsDropped() {
        var t = DamageTracker(bufferCount: 1, bounds: screen)
        _ = t.take(for: 0)
        t.add([PixelRect(x: 90, y: 40, width: 30, height: 30), PixelRect(x: 200, y: 0, width: 5, height: 5),
               PixelRect(x: 3, y: 3, width: 0, height: 9)])
        #expect(t.take(for: 0) == [PixelRect(x: 90, y: 40, width: 10, height: 10)])
    }

    @Test func damageMergesByTheWindowsRuleAndFarApartChangesStaySmall() {
        var t = DamageTracker(bufferCount: 1, bounds: screen, maxRects: 3)
        _ = t.take(for: 0)
        t.add([PixelRect(x: 1, y: 1, width: 2, height: 2), PixelRect(x: 0, y: 0, width: 10, height: 10),
               PixelRect(x: 2, y: 2, width: 3, height: 3)])
        #expect(t.take(for: 0) == [PixelRect(x: 0, y: 0, width: 10, height: 10)], "covered rectangles merge")
        // Two specks in opposite corners stay two specks (a bounding box would be the screen).
        t.add([PixelRect(x: 0, y: 0, width: 2, height: 2), PixelRect(x: 98, y: 48, width: 2, height: 2)])
        #expect(t.take(for: 0) == [PixelRect(x: 0, y: 0, width: 2, height: 2), PixelRect(x: 98, y: 48, width: 2, height: 2)])
        // Past the limit the cheapest pair merges; everything damaged is still covered.
        let specks = (0..<6).map { PixelRect(x: $0 * 19, y: ($0 % 2) * 45, width: 3, height: 3) }
        t.add(specks)
        let rects = t.take(for: 0)
        #expect(rects.count <= 3)
        #expect(specks.allSatisfy { speck in rects.contains { $0.contains(speck) } })
    }

    @Test func invalidateAllMakesEveryBufferFull() {
        var t = DamageTracker(bufferCount: 2, bounds: screen)
        _ = t.take(for: 0); _ = t.take(for: 1)
        t.invalidateAll()
        #expect(t.take(for: 0) == [screen] && t.take(for: 1) == [screen])
    }
}
