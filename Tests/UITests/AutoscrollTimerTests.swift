import Testing
import Graphics
@testable import UI

/// ScrollViewSuite's thumb strip: canCancelContentTouches off, a held thumb is dragged to the
/// edge and a 1/60 s repeating timer scrolls the strip until the finger lifts.
@Suite struct AutoscrollTimerTests {
    final class Thumb: View {
        var timer: ScheduledTimer?
        weak var strip: ScrollView?

        override func touchesMoved(_ touches: [Touch]) {
            guard let strip, let touch = touches.first else { return }
            let x = touch.location(in: strip).x - strip.bounds.minX
            if strip.bounds.width - x < 30, timer == nil, let scheduler = window?.scheduler {
                timer = scheduler.schedule(after: 1.0 / 60, repeating: 1.0 / 60) { [weak strip] in
                    guard let strip else { return }
                    strip.contentOffset.x = min(strip.contentOffset.x + 3, strip.maximumContentOffset.x)
                }
            }
        }

        override func touchesEnded(_ touches: [Touch]) {
            timer?.invalidate()
            timer = nil
        }
    }

    @Test func timerScrollsWhileTheThumbIsHeldAtTheEdge() {
        let h = Harness()
        let strip = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 160))
        strip.contentSize = Size(width: 2000, height: 160)
        strip.canCancelContentTouches = false
        let thumb = Thumb(frame: Rect(x: 10, y: 5, width: 150, height: 150))
        thumb.isExclusiveTouch = true
        thumb.strip = strip
        strip.addSubview(thumb)
        h.window.addSubview(strip)

        h.touch(.began, Point(x: 80, y: 80))
        h.run(for: 0.2)                          // held: the thumb tracks the touch
        for i in 1...10 {
            h.advance(by: Harness.frame)
            h.touch(.moved, Point(x: 80 + Double(i) * 30, y: 80))
        }
        #expect(thumb.timer != nil)
        let start = strip.contentOffset.x
        #expect(start == 0)                      // the strip did not scroll with the finger
        h.run(for: 0.5)
        #expect(abs(strip.contentOffset.x - (start + 90)) <= 3)  // 30 ticks of 3 points
        h.touch(.ended, Point(x: 380, y: 80))
        #expect(thumb.timer == nil)
        h.runUntilIdle()
        #expect(h.window.nextDeadline == nil)
    }
}
