import Testing
import Graphics
import UI
@testable import Widgets

/// The horizontal strip: 600×160 at the bottom of an 800×600 window, 150-px cells 160 px apart.
@Suite struct StripReorderTests {
    let h = ReorderHarness(size: Size(width: 800, height: 600))
    let strip = ThumbnailStripView(frame: Rect(x: 100, y: 440, width: 600, height: ThumbnailStripView.defaultHeight))
    let provider = RecordingProvider()

    init() {
        strip.itemCount = 40
        strip.provider = provider
        h.window.addSubview(strip)
        h.window.layoutIfNeeded()
    }

    func centre(_ index: Int) -> Point { strip.convert(strip.layout.frame(of: index).center, to: nil) }

    @Test func layoutMatchesTheSeedsStrip() {
        #expect(strip.layout.cellSize == 150)
        #expect(strip.layout.frame(of: 0) == Rect(x: 10, y: 5, width: 150, height: 150))
        #expect(strip.layout.frame(of: 1).minX == 170)
        #expect(strip.contentSize.width == 10 + 40 * 160)
        #expect(strip.layout.indices(intersecting: Rect(x: 0, y: 0, width: 600, height: 160)) == 0..<4)
        #expect(strip.layout.nearestIndex(to: Point(x: 164, y: 80)) == 0)
        #expect(strip.layout.nearestIndex(to: Point(x: 166, y: 80)) == 1)
        #expect(strip.layout.nearestIndex(to: Point(x: -50, y: 80)) == 0)
        #expect(strip.layout.nearestIndex(to: Point(x: 1e6, y: 80)) == 39)
        #expect(strip.layout.index(at: Point(x: 165, y: 80)) == nil)
    }

    @Test func aQuickSwipeScrollsTheStripInsteadOfPickingUp() {
        let a = centre(2)
        h.touch(.began, a)
        h.move(from: a, to: a + Point(x: -200, y: 0), steps: 6)     // 100 ms: intent known before the content delay
        h.touch(.ended, a + Point(x: -200, y: 0))
        #expect(strip.reorderDrag == nil)
        #expect(strip.contentOffset.x > 150)
    }

    @Test func restThenMovePastTheDragThresholdPicksUpWithoutScrolling() throws {
        let a = centre(1)
        h.touch(.began, a)
        h.run(for: 0.2)                                             // past the 150 ms content-touch delay
        h.touch(.moved, a + Point(x: 10, y: 0))                    // exactly 10: not yet
        #expect(strip.reorderDrag == nil)
        h.advance(by: ReorderHarness.frame)
        h.touch(.moved, a + Point(x: 10.5, y: 0))
        let drag = try #require(strip.reorderDrag)
        #expect(drag.plan.from == 1)
        // The seed restarts the drag where the finger is: no jump by the threshold.
        h.run(for: 0.2)
        #expect(near(drag.lifted.convert(drag.grab, to: nil), a + Point(x: 10.5, y: 0)))
        h.move(from: a + Point(x: 10.5, y: 0), to: a + Point(x: 180, y: 0), steps: 8)
        #expect(strip.contentOffset == .zero)
        #expect(near(drag.lifted.convert(drag.grab, to: nil), a + Point(x: 180, y: 0)))
        #expect(drag.plan.to == 2)
    }

    @Test func aTapSelects() {
        var selected: [Int] = []
        strip.onSelect = { selected.append($0) }
        h.touch(.began, centre(3))
        h.advance(by: 0.05)
        h.touch(.ended, centre(3))
        #expect(selected == [3])
    }

    @Test func carriedAboveTheStripItIsNotClippedAndDoesNotAutoscroll() throws {
        let a = centre(0)
        h.touch(.began, a)
        h.run(for: 0.2)
        h.move(from: a, to: Point(x: 120, y: 200), steps: 10)       // far above the strip, near its left end
        let drag = try #require(strip.reorderDrag)
        #expect(strip.clipsToBounds)                                // the strip still clips its content...
        #expect(drag.lifted.superview === h.window)                 // ...the carried thumbnail is above it
        #expect(!drag.autoscroller.isRunning)                       // the seed: only over the strip
        h.touch(.moved, Point(x: 690, y: 230))                      // in the right zone's x range, but above the strip
        #expect(!drag.autoscroller.isRunning)
        h.touch(.moved, Point(x: 690, y: 520))                      // back over the strip
        #expect(drag.autoscroller.isRunning)
        h.touch(.moved, Point(x: 400, y: 520))
        #expect(!drag.autoscroller.isRunning)
    }

    @Test func autoscrollsHorizontallyAndClampsAtTheEnd() throws {
        let a = centre(0)
        h.touch(.began, a)
        h.run(for: 0.2)
        let edge = Point(x: 699, y: 520)                            // 1 px inside the strip's right edge
        h.move(from: a, to: edge, steps: 10)
        let drag = try #require(strip.reorderDrag)
        #expect(drag.autoscroller.isRunning)
        let offset = strip.contentOffset.x
        h.advance(by: ReorderHarness.frame)
        #expect(strip.contentOffset.x == offset + 6)
        #expect(near(drag.lifted.convert(drag.grab, to: nil), edge))
        h.run(for: 30)
        #expect(strip.contentOffset.x == strip.maximumContentOffset.x)
        #expect(drag.plan.to == 39)
        var moved: [(Int, Int)] = []
        strip.onMove = { moved.append(($0, $1)) }
        h.touch(.ended, edge)
        #expect(!drag.autoscroller.isRunning)
        h.run(for: 1)
        #expect(moved.count == 1 && moved[0] == (0, 39))
        #expect(strip.reorderDrag == nil)
        #expect(strip.cell(at: 39)?.superview?.superview === strip)
        #expect(strip.itemView(at: 39)?.frame == strip.layout.frame(of: 39))
        // Back to the start: dragging to the left edge scrolls back and clamps at 0.
        let b = centre(39)
        h.touch(.began, b)
        h.run(for: 0.2)
        h.move(from: b, to: Point(x: 101, y: 520), steps: 10)
        h.run(for: 30)
        #expect(strip.contentOffset.x == 0)
        #expect(strip.reorderDrag?.plan.to == 0)
        h.touch(.ended, Point(x: 101, y: 520))
        h.run(for: 1)
        #expect(moved.count == 2 && moved[1] == (39, 0))
    }
}
