import Testing
import Graphics
@testable import Widgets

@Suite struct GridLayoutTests {
    @Test func columnsFillTheWidthExactly() {
        let g = GridLayout(width: 1920, itemCount: 100, preferredCellSize: 240, spacing: 8)
        #expect(g.columns == 7)
        let last = g.frame(of: g.columns - 1)
        #expect(abs(last.maxX + g.spacing - 1920) < 1e-9)
        #expect(g.frame(of: 0).width == g.frame(of: 0).height)
    }

    @Test func contentHeightCoversTheLastRow() {
        let g = GridLayout(width: 800, itemCount: 10, preferredCellSize: 190, spacing: 10)
        #expect(g.rows == (10 + g.columns - 1) / g.columns)
        #expect(abs(g.frame(of: 9).maxY + g.spacing - g.contentHeight) < 1e-9)
        #expect(GridLayout(width: 800, itemCount: 0, preferredCellSize: 190).contentHeight == 0)
    }

    /// The visible set must be exactly the cells whose frames intersect the rect.
    @Test(arguments: [(1920.0, 240.0, 8.0), (800, 150, 0), (480, 500, 12), (1080, 96, 4)])
    func visibleSetIsExactlyTheIntersectingCells(width: Double, cell: Double, spacing: Double) {
        let g = GridLayout(width: width, itemCount: 503, preferredCellSize: cell, spacing: spacing)
        var y = -300.0
        while y < g.contentHeight + 300 {
            for height in [1.0, 37, 600, 1080] {
                let viewport = Rect(x: 0, y: y, width: width, height: height)
                let brute = (0..<g.itemCount).filter { g.frame(of: $0).intersects(viewport) }
                let fast = Array(g.indices(intersecting: viewport))
                #expect(fast == brute, "y=\(y) h=\(height)")
            }
            y += 97.3
        }
    }

    @Test func hitTestingFindsTheCellAndMissesTheGaps() {
        let g = GridLayout(width: 1000, itemCount: 20, preferredCellSize: 190, spacing: 10)
        for i in 0..<20 {
            #expect(g.index(at: g.frame(of: i).center) == i)
        }
        #expect(g.index(at: Point(x: 5, y: 50)) == nil)
        #expect(g.index(at: Point(x: 50, y: g.contentHeight + 10)) == nil)
    }

    @Test func nearestIndexClampsIntoTheGrid() {
        let g = GridLayout(width: 1000, itemCount: 13, preferredCellSize: 190, spacing: 10)
        #expect(g.nearestIndex(to: Point(x: -50, y: -50)) == 0)
        #expect(g.nearestIndex(to: Point(x: 5000, y: 5000)) == 12)
        #expect(g.nearestIndex(to: g.frame(of: 7).center) == 7)
    }
}
