import Testing
import Graphics
import UI
@testable import Widgets

@Suite struct ReorderEdgeCaseTests {
    func makeGrid(_ h: ReorderHarness, count: Int = 200) -> (ThumbnailGridView, RecordingProvider) {
        let grid = ThumbnailGridView(frame: Rect(x: 0, y: 0, width: 800, height: 600))
        let provider = RecordingProvider()
        grid.preferredCellSize = 190
        grid.itemCount = count
        grid.provider = provider
        h.window.addSubview(grid)
        h.window.layoutIfNeeded()
        return (grid, provider)
    }

    func centre(_ grid: ThumbnailGridView, _ index: Int) -> Point { grid.convert(grid.layout.frame(of: index).center, to: nil) }

    @Test func densityScalesTheZoneAndTheDistancePerTick() throws {
        let h = ReorderHarness(size: Size(width: 800, height: 600))
        let (grid, _) = makeGrid(h)
        grid.reorderDensity = 2
        let start = centre(grid, 1)
        h.longPress(at: start)
        let drag = try #require(grid.reorderDrag)
        h.move(from: start, to: Point(x: start.x, y: 540), steps: 6)          // 60 px from the edge: outside
        #expect(!drag.autoscroller.isRunning)
        h.touch(.moved, Point(x: start.x, y: 599))                            // 1 px: ceil(29.5/5)·2 = 12
        h.advance(by: ReorderHarness.frame)
        #expect(grid.contentOffset.y == 12)
    }

    @Test func aThumbnailArrivingWhileCarriedShowsOnTheCarriedCell() throws {
        let h = ReorderHarness(size: Size(width: 800, height: 600))
        let (grid, provider) = makeGrid(h)
        h.longPress(at: centre(grid, 2))
        let drag = try #require(grid.reorderDrag)
        let carried = try #require(drag.lifted.item as? ThumbnailCellView)
        #expect(grid.cell(at: 2) === carried)
        h.window.layoutIfNeeded()                                             // as the next frame does
        #expect(provider.lastWanted[2] == 0)                                  // still wanted, most urgently
        provider.loaded[2] = RecordingProvider.solid(.green)
        grid.thumbnailDidChange(at: 2)
        guard case .image = carried.state else { Issue.record("not updated"); return }
    }

    @Test func contentShorterThanTheScreenNeverAutoscrolls() throws {
        let h = ReorderHarness(size: Size(width: 800, height: 600))
        let (grid, _) = makeGrid(h, count: 6)
        let start = centre(grid, 0)
        h.longPress(at: start)
        let drag = try #require(grid.reorderDrag)
        h.move(from: start, to: Point(x: start.x, y: 599), steps: 6)
        #expect(drag.autoscroller.isRunning)                                  // in the zone...
        h.run(for: 1)
        #expect(grid.contentOffset == .zero)                                  // ...but nothing to scroll
        #expect(drag.plan.to == 4)                                            // the last row, the finger's column
        h.touch(.ended, Point(x: start.x, y: 599))
        h.run(for: 0.5)
        #expect(grid.reorderDrag == nil)
    }

    @Test func theStripPutsACarriedThumbnailBackWhenItsListChanges() throws {
        let h = ReorderHarness(size: Size(width: 800, height: 600))
        let strip = ThumbnailStripView(frame: Rect(x: 0, y: 440, width: 800, height: 160))
        let provider = RecordingProvider()
        strip.itemCount = 20
        strip.provider = provider
        var moved = 0
        strip.onMove = { _, _ in moved += 1 }
        h.window.addSubview(strip)
        h.window.layoutIfNeeded()
        let a = strip.convert(strip.layout.frame(of: 0).center, to: nil)
        h.touch(.began, a)
        h.run(for: 0.2)
        h.move(from: a, to: a + Point(x: 330, y: 0), steps: 8)
        #expect(strip.reorderDrag?.plan.to == 2)
        strip.itemCount = 19
        strip.reloadData()
        #expect(strip.reorderDrag == nil)
        h.touch(.ended, a + Point(x: 330, y: 0))
        h.window.layoutIfNeeded()
        #expect(moved == 0)
        #expect(strip.itemView(at: 0)?.frame == strip.layout.frame(of: 0))
        #expect(strip.itemView(at: 1)?.frame == strip.layout.frame(of: 1))
    }

    @Test func theConfirmPromptConfirmsOnlyOnItsButton() {
        let h = ReorderHarness(size: Size(width: 800, height: 600))
        var results: [Bool] = []
        for point in [Point(x: 10, y: 10), nil] {
            let prompt = ConfirmPromptView(frame: h.window.bounds, message: "Reset?", confirmTitle: "Reset")
            prompt.onFinish = { results.append($0) }
            h.window.addSubview(prompt)
            let p = point ?? prompt.confirmButton.center
            h.touch(.began, p)
            h.advance(by: 0.05)
            h.touch(.ended, p)
            #expect(prompt.superview == nil)
        }
        #expect(results == [false, true])
    }
}
