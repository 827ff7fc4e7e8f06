import Testing
import Graphics
import UI
@testable import Widgets

/// Drag to reorder in the grid: 800×600, 4 columns of 190-px cells 198 px apart, 200 photos.
@Suite struct ReorderGridTests {
    let h = ReorderHarness(size: Size(width: 800, height: 600))
    let grid = ThumbnailGridView(frame: Rect(x: 0, y: 0, width: 800, height: 600))
    let provider = RecordingProvider()

    init() {
        grid.preferredCellSize = 190
        grid.itemCount = 200
        grid.provider = provider
        h.window.addSubview(grid)
        h.window.layoutIfNeeded()
    }

    func centre(_ index: Int) -> Point { grid.convert(grid.layout.frame(of: index).center, to: nil) }

    /// Picks up item `from` and carries it over item `to`; the first 12 cells as they were before.
    func carry(_ from: Int, over to: Int) -> [ThumbnailCellView] {
        let cells = (0..<12).map { grid.cell(at: $0)! }
        h.longPress(at: centre(from))
        h.move(from: centre(from), to: centre(to), steps: 10)
        return cells
    }

    /// The point of the item the finger grabbed, on screen.
    func grabbedPointOnScreen(_ drag: ReorderDrag) -> Point { drag.lifted.convert(drag.grab, to: nil) }

    @Test func longPressLiftsTheThumbnailAboveEverythingWithTheGrabbedPointUnderTheFinger() throws {
        #expect(grid.layout.columns == 4 && grid.layout.cellSize == 190)
        let finger = centre(5) + Point(x: 30, y: -40)
        let cell = try #require(grid.cell(at: 5))
        h.longPress(at: finger)
        let drag = try #require(grid.reorderDrag)
        #expect(drag.plan == ReorderPlan(from: 5, to: 5))
        #expect(h.window.subviews.last === drag.lifted)           // in front of the grid
        #expect(drag.lifted.item === cell)
        h.run(for: 0.2)
        #expect(drag.lifted.scale == LiftedItemView.liftScale)     // grown
        #expect(drag.lifted.shadowStrength == 1)
        #expect(near(grabbedPointOnScreen(drag), finger))
        h.move(from: finger, to: finger + Point(x: -120, y: 70), steps: 6)
        #expect(near(grabbedPointOnScreen(drag), finger + Point(x: -120, y: 70)))
        #expect(!grid.isDragging)                                  // the grid did not scroll
        #expect(grid.contentOffset == .zero)
    }

    @Test func autoscrollTimerStartsAndStopsExactlyAtTheZoneEdgesAndOnLift() throws {
        let start = centre(1)
        h.longPress(at: start)
        let drag = try #require(grid.reorderDrag)
        // The zone is the last 30 px: y = 570 is outside, 570.001 inside.
        h.move(from: start, to: Point(x: start.x, y: 570), steps: 10)
        #expect(!drag.autoscroller.isRunning)
        h.touch(.moved, Point(x: start.x, y: 570.001))
        #expect(drag.autoscroller.isRunning)
        h.advance(by: ReorderHarness.frame)
        #expect(grid.contentOffset.y == 1)                         // ceil((30 − 29.999)/5) = 1 per tick
        h.touch(.moved, Point(x: start.x, y: 570))
        #expect(!drag.autoscroller.isRunning)                      // left the zone: stopped at once
        h.advance(by: ReorderHarness.frame)
        #expect(grid.contentOffset.y == 1)
        // Top zone: y < 30 scrolls up (here back to 0 and clamped there).
        h.touch(.moved, Point(x: start.x, y: 29.5))
        #expect(drag.autoscroller.isRunning)
        h.touch(.moved, Point(x: start.x, y: 30))
        #expect(!drag.autoscroller.isRunning)
        h.touch(.moved, Point(x: start.x, y: 599))
        #expect(drag.autoscroller.isRunning)
        h.touch(.ended, Point(x: start.x, y: 599))
        #expect(!drag.autoscroller.isRunning)                      // lift stops it
        let offset = grid.contentOffset
        h.run(for: 1)
        #expect(grid.contentOffset == offset)
        #expect(h.window.scheduler.isIdle)
    }

    @Test func thumbnailStaysUnderTheFingerWhileAutoscrollMovesTheContent() throws {
        let start = centre(2)
        h.longPress(at: start)
        let drag = try #require(grid.reorderDrag)
        let edge = Point(x: start.x, y: 599)                       // proximity 1: 6 px per tick
        h.move(from: start, to: edge, steps: 12)
        let screenFrame = drag.lifted.convert(drag.lifted.bounds, to: nil)
        let offset = grid.contentOffset.y
        for tick in 1...30 {
            h.advance(by: ReorderHarness.frame)
            #expect(grid.contentOffset.y == offset + Double(6 * tick))
            #expect(near(grabbedPointOnScreen(drag), edge))
            #expect(near(drag.lifted.convert(drag.lifted.bounds, to: nil), screenFrame))
        }
        // The drop index follows the content under the finger.
        let under = grid.layout.nearestIndex(to: grid.convert(edge, from: nil))
        #expect(drag.plan.to == under)
        #expect(under > 8)
    }

    @Test func autoscrollIsClampedAtBothEnds() throws {
        let start = centre(0)
        h.longPress(at: start)
        let drag = try #require(grid.reorderDrag)
        h.move(from: start, to: Point(x: start.x, y: 599), steps: 6)
        let maxY = grid.maximumContentOffset.y
        #expect(maxY == grid.layout.contentHeight - 600)
        // 6 px per tick over ~9300 px: about 26 s of holding.
        for _ in 0..<2000 {
            h.advance(by: ReorderHarness.frame)
            #expect(grid.contentOffset.y <= maxY)
        }
        #expect(grid.contentOffset.y == maxY)
        #expect(drag.plan.to == 196)                               // last row, the finger's column
        h.move(from: Point(x: start.x, y: 599), to: Point(x: start.x, y: 0), steps: 6)
        for _ in 0..<2000 {
            h.advance(by: ReorderHarness.frame)
            #expect(grid.contentOffset.y >= 0)
        }
        #expect(grid.contentOffset.y == 0)
        #expect(drag.plan.to == 0)
    }

    @Test func forwardMoveAcrossRowsSlidesTheOthersBackAndCommitsOnLift() throws {
        var moved: [(Int, Int)] = []
        grid.onMove = { moved.append(($0, $1)) }
        let cells = carry(1, over: 9)                               // row 0 → row 2
        let drag = try #require(grid.reorderDrag)
        #expect(drag.plan == ReorderPlan(from: 1, to: 9))
        h.run(for: ReorderDrag.rearrangeDuration + 0.05)
        for item in 2...9 { #expect(cells[item].frame == grid.layout.frame(of: item - 1), "item \(item)") }
        for item in [0, 10, 11] { #expect(cells[item].frame == grid.layout.frame(of: item)) }
        h.touch(.ended, centre(9))
        #expect(moved.count == 1 && moved[0] == (1, 9))
        // Cells now answer to their new indices; the dropped one flies home.
        #expect(grid.cell(at: 8) === cells[9])
        #expect(grid.cell(at: 1) === cells[2])
        h.run(for: 0.5)
        #expect(grid.reorderDrag == nil)
        #expect(grid.cell(at: 9) === cells[1])
        #expect(cells[1].superview === grid)
        #expect(cells[1].frame == grid.layout.frame(of: 9))
        #expect(cells[1].index == 9)
    }

    @Test func backwardMoveAcrossRowsSlidesTheOthersForward() throws {
        var moved: [(Int, Int)] = []
        grid.onMove = { moved.append(($0, $1)) }
        let cells = carry(10, over: 2)                              // row 2 → row 0
        #expect(grid.reorderDrag?.plan == ReorderPlan(from: 10, to: 2))
        h.run(for: ReorderDrag.rearrangeDuration + 0.05)
        for item in 2...9 { #expect(cells[item].frame == grid.layout.frame(of: item + 1), "item \(item)") }
        #expect(cells[1].frame == grid.layout.frame(of: 1))
        // Changing its mind: back over 7, the cells between 2 and 6 return.
        h.move(from: centre(2), to: centre(7), steps: 4)
        h.run(for: ReorderDrag.rearrangeDuration + 0.05)
        for item in 2...6 { #expect(cells[item].frame == grid.layout.frame(of: item)) }
        for item in 7...9 { #expect(cells[item].frame == grid.layout.frame(of: item + 1)) }
        h.touch(.ended, centre(7))
        h.run(for: 0.5)
        #expect(moved.count == 1 && moved[0] == (10, 7))
        #expect(grid.cell(at: 7) === cells[10])
    }

    @Test func droppingFliesHomeInTheSeedsDuration() throws {
        h.longPress(at: centre(0))
        let drag = try #require(grid.reorderDrag)
        let away = centre(0) + Point(x: 20, y: 250)                // over cell 4, 20 px right of its centre
        h.move(from: centre(0), to: away, steps: 5)
        h.run(for: 0.3)
        #expect(drag.plan.to == 4)
        let home = grid.convert(grid.layout.frame(of: 4).origin, to: nil)
        let distance = drag.lifted.itemFrame.origin.distance(to: home)
        let duration = ReorderDrag.homeDuration(distance: distance)
        #expect(duration > 0.1 && duration < 0.2)
        h.touch(.ended, away)
        var elapsed = 0.0
        while grid.reorderDrag != nil && elapsed < 1 {
            h.advance(by: ReorderHarness.frame)
            elapsed += ReorderHarness.frame
        }
        #expect(abs(elapsed - duration) <= ReorderHarness.frame + 1e-9)
        #expect(grid.cell(at: 4)?.frame == grid.layout.frame(of: 4))
        #expect(grid.cell(at: 4)?.transform == .identity)
    }

    @Test func longPressOnAnEmptySpotIsReportedNotLifted() {
        grid.itemCount = 6                                          // row 1 has two cells: 2 empty slots
        h.window.layoutIfNeeded()
        var pressed: [Point] = []
        grid.onLongPressEmptyArea = { pressed.append($0) }
        let empty = grid.convert(grid.layout.frame(of: 7).center, to: nil)
        h.longPress(at: empty)
        h.touch(.ended, empty)
        #expect(pressed.count == 1)
        #expect(grid.reorderDrag == nil)
    }

    @Test func aLibraryChangeDuringTheDragPutsTheThumbnailBackWithoutMoving() throws {
        var moved = 0
        grid.onMove = { _, _ in moved += 1 }
        h.longPress(at: centre(3))
        h.move(from: centre(3), to: centre(10), steps: 5)
        grid.reloadData()
        #expect(grid.reorderDrag == nil)
        #expect(grid.cell(at: 3)?.frame == grid.layout.frame(of: 3))
        #expect(grid.cell(at: 4)?.frame == grid.layout.frame(of: 4))
        h.touch(.ended, centre(10))
        h.run(for: 0.5)
        #expect(moved == 0)
    }

    /// The carried thumbnail draws over its neighbours with a shadow below and right of it.
    @Test func midDragRenderingShowsTheLiftedThumbnailWithItsShadow() throws {
        for i in 0..<200 { provider.loaded[i] = RecordingProvider.solid(i == 5 ? .red : Color(rgb: 0x4060A0)) }
        grid.reloadData()
        h.longPress(at: centre(5))
        h.move(from: centre(5), to: centre(5) + Point(x: 95, y: 60), steps: 6)
        h.run(for: 0.3)
        let drag = try #require(grid.reorderDrag)
        let bitmap = Bitmap(width: 800, height: 600)
        h.window.render(into: Canvas(target: bitmap))
        let item = drag.lifted.convert(drag.lifted.bounds, to: nil)
        let shown = drag.lifted.itemFrame
        #expect(abs(shown.width - 190 * LiftedItemView.liftScale) < 1e-9)
        let inside = bitmap.color(x: Int(shown.midX), y: Int(shown.midY))
        #expect(inside == .red)
        // Just below the thumbnail's bottom edge: the shadow darkens what is underneath.
        let belowX = Int(shown.midX), belowY = Int(shown.maxY) + 4
        let under = bitmap.color(x: belowX, y: belowY)
        let background = grid.backgroundColor!
        let cellUnder = grid.layout.index(at: grid.convert(Point(x: Double(belowX), y: Double(belowY)), from: nil)) != nil
        let plain = cellUnder ? Color(rgb: 0x4060A0) : background
        #expect(Int(under.red) + Int(under.green) + Int(under.blue) < Int(plain.red) + Int(plain.green) + Int(plain.blue))
        #expect(item.contains(Point(x: Double(belowX), y: Double(belowY))))
    }
}
