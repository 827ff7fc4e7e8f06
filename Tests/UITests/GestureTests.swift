import Testing
import Graphics
@testable import UI

@Suite struct GestureTests {
    /// A 400x400 view with a single tap that waits for a double tap.
    final class Scene {
        let h = Harness()
        let view = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        var events: [String] = []
        var lastTapLocation: Point?
        let single: TapGestureRecognizer
        let double: TapGestureRecognizer

        init(withDouble: Bool = true) {
            single = TapGestureRecognizer(taps: 1)
            double = TapGestureRecognizer(taps: 2)
            single.addAction { [unowned self] r in
                self.events.append("single")
                self.lastTapLocation = r.location(in: self.view)
            }
            double.addAction { [unowned self] r in
                self.events.append("double")
                self.lastTapLocation = r.location(in: self.view)
            }
            view.addGestureRecognizer(single)
            if withDouble {
                view.addGestureRecognizer(double)
                single.require(toFail: double)
            }
            h.window.addSubview(view)
        }
    }

    @Test func singleTapWaitsForTheDoubleTapWindow() {
        let s = Scene()
        s.h.tap(Point(x: 100, y: 120))
        #expect(s.events.isEmpty)
        s.h.run(for: 0.3)
        #expect(s.events.isEmpty)
        s.h.run(for: 0.1)
        #expect(s.events == ["single"])
        #expect(s.lastTapLocation == Point(x: 100, y: 120))
        #expect(s.h.window.nextDeadline == nil)
    }

    @Test func singleTapFiresAtOnceWithoutADoubleTap() {
        let s = Scene(withDouble: false)
        s.h.tap(Point(x: 100, y: 120))
        #expect(s.events == ["single"])
    }

    @Test func doubleTapWinsAndSuppressesTheSingle() {
        let s = Scene()
        s.h.tap(Point(x: 100, y: 100))
        s.h.advance(by: 0.15)
        s.h.tap(Point(x: 102, y: 101))
        #expect(s.events == ["double"])
        s.h.run(for: 1)
        #expect(s.events == ["double"])
        // Then the recognizers are ready again.
        s.h.tap(Point(x: 50, y: 50))
        s.h.run(for: 0.5)
        #expect(s.events == ["double", "single"])
    }

    @Test func tapsTooFarApartInTimeAreTwoSingles() {
        let s = Scene()
        s.h.tap(Point(x: 100, y: 100))
        s.h.run(for: 0.5)
        s.h.tap(Point(x: 100, y: 100))
        s.h.run(for: 0.5)
        #expect(s.events == ["single", "single"])
    }

    @Test func tapsFarApartInSpaceAreNotADoubleTap() {
        let s = Scene()
        s.h.tap(Point(x: 100, y: 100))
        s.h.advance(by: 0.15)
        s.h.tap(Point(x: 300, y: 300))   // within the interval, 283 px away: another target
        s.h.run(for: 1)
        // The first tap is a single tap at once; the second landed while the recognizers were
        // settling the first, so (as in UIKit) it starts no gesture of its own.
        #expect(s.events == ["single"])
        #expect(s.lastTapLocation == Point(x: 100, y: 100))
    }

    @Test func dragIsNeitherTap() {
        let s = Scene()
        var pans: [GestureState] = []
        var translation = Point.zero, velocity = Point.zero
        let pan = PanGestureRecognizer {
            pans.append($0.state)
            translation = $0.translation(in: nil)
            velocity = $0.velocity(in: nil)
        }
        pan.recognizesSimultaneously = { _, _ in false }
        s.view.addGestureRecognizer(pan)
        s.h.drag(from: Point(x: 100, y: 100), to: Point(x: 160, y: 100), duration: 0.1)
        s.h.run(for: 1)
        #expect(s.events.isEmpty)
        #expect(pans.first == .began && pans.last == .ended)
        // Translation counts from where the 10-point threshold was crossed (x = 110, first frame).
        #expect(close(translation, Point(x: 50, y: 0), 1e-9))
        #expect(close(velocity, Point(x: 600, y: 0), 1e-6))
    }

    @Test func twoFingerTapTogetherOrInSequence() {
        let h = Harness()
        let view = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        h.window.addSubview(view)
        var locations: [Point] = []
        let twoFinger = TapGestureRecognizer(taps: 1, touches: 2) { locations.append($0.location(in: view)) }
        view.addGestureRecognizer(twoFinger)
        h.touches([(.began, Point(x: 100, y: 100), 0), (.began, Point(x: 200, y: 100), 1)])
        h.advance(by: 0.05)
        h.touches([(.ended, Point(x: 100, y: 100), 0), (.ended, Point(x: 200, y: 100), 1)])
        #expect(locations == [Point(x: 150, y: 100)])
        h.run(for: 1)
        h.tap(Point(x: 100, y: 300), slot: 0)
        h.advance(by: 0.1)
        h.tap(Point(x: 200, y: 300), slot: 1)
        #expect(locations == [Point(x: 150, y: 100), Point(x: 150, y: 300)])
        // One finger alone is not a two-finger tap; three fingers are not either.
        h.run(for: 1)
        h.tap(Point(x: 10, y: 10))
        h.run(for: 1)
        h.touches([(.began, Point(x: 10, y: 10), 0), (.began, Point(x: 20, y: 10), 1), (.began, Point(x: 30, y: 10), 2)])
        h.touches([(.ended, Point(x: 10, y: 10), 0), (.ended, Point(x: 20, y: 10), 1), (.ended, Point(x: 30, y: 10), 2)])
        h.run(for: 1)
        #expect(locations.count == 2)
    }

    @Test func longPressBeginsAfterHalfASecond() {
        let h = Harness()
        let view = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        h.window.addSubview(view)
        var states: [GestureState] = []
        view.addGestureRecognizer(LongPressGestureRecognizer { states.append($0.state) })
        h.touch(.began, Point(x: 50, y: 50))
        h.run(for: 0.45)
        #expect(states.isEmpty)
        h.run(for: 0.1)
        #expect(states == [.began])
        h.touch(.moved, Point(x: 80, y: 50))
        h.touch(.ended, Point(x: 80, y: 50))
        #expect(states == [.began, .changed, .ended])
        // Moving before the time fails it.
        h.touch(.began, Point(x: 50, y: 50))
        h.advance(by: 0.1)
        h.touch(.moved, Point(x: 80, y: 50))
        h.run(for: 1)
        h.touch(.ended, Point(x: 80, y: 50))
        #expect(states == [.began, .changed, .ended])
    }

    @Test func pinchReportsScaleAndCentroid() {
        let h = Harness()
        let view = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        h.window.addSubview(view)
        var reports: [(GestureState, Double, Point)] = []
        view.addGestureRecognizer(PinchGestureRecognizer { reports.append(($0.state, $0.scale, $0.location(in: view))) })
        h.touches([(.began, Point(x: 150, y: 200), 0), (.began, Point(x: 250, y: 200), 1)])
        for i in 1...10 {
            h.advance(by: Harness.frame)
            let d = Double(5 * i)
            h.touches([(.moved, Point(x: 150 - d, y: 200), 0), (.moved, Point(x: 250 + d, y: 200), 1)])
        }
        h.touches([(.ended, Point(x: 100, y: 200), 0), (.ended, Point(x: 300, y: 200), 1)])
        #expect(reports.first?.0 == .began)
        #expect(reports.last?.0 == .ended)
        let changed = reports.filter { $0.0 == .changed }
        #expect(close(changed.last!.1, 2.0, 1e-9))          // 200 / 100
        #expect(changed.allSatisfy { $0.2 == Point(x: 200, y: 200) })
    }

    @Test func stateTableRejectsIllegalMoves() {
        #expect(GestureState.possible.canTransition(to: .began))
        #expect(GestureState.possible.canTransition(to: .recognized))
        #expect(!GestureState.possible.canTransition(to: .changed))
        #expect(!GestureState.ended.canTransition(to: .changed))
        #expect(!GestureState.failed.canTransition(to: .began))
        #expect(GestureState.changed.canTransition(to: .cancelled))
    }
}

@Suite struct GesturesInScrollViewTests {
    @Test func longPressOnContentWinsOverScrolling() {
        let h = Harness()
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        scroll.contentSize = Size(width: 400, height: 3000)
        let thumb = RecordingView(frame: Rect(x: 50, y: 50, width: 100, height: 100))
        var states: [GestureState] = []
        thumb.addGestureRecognizer(LongPressGestureRecognizer { states.append($0.state) })
        scroll.addSubview(thumb)
        h.window.addSubview(scroll)
        h.touch(.began, Point(x: 100, y: 100))
        h.run(for: 0.6)
        #expect(states == [.began])
        #expect(thumb.log == ["began", "cancelled"])  // shown after 150 ms, taken by the long press
        for i in 1...5 {
            h.advance(by: Harness.frame)
            h.touch(.moved, Point(x: 100, y: 100 - Double(i * 20)))
        }
        h.touch(.ended, Point(x: 100, y: 0))
        #expect(states.last == .ended && states.contains(.changed))
        #expect(scroll.contentOffset == .zero)
    }

    @Test func didScrollReportsEveryOffsetChange() {
        final class Counter: ScrollViewDelegate {
            var offsets: [Double] = []
            func scrollViewDidScroll(_ scrollView: ScrollView) { offsets.append(scrollView.contentOffset.y) }
        }
        let h = Harness()
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        scroll.contentSize = Size(width: 400, height: 3000)
        let counter = Counter()
        scroll.delegate = counter
        h.window.addSubview(scroll)
        h.drag(from: Point(x: 200, y: 300), to: Point(x: 200, y: 200), duration: 0.1)
        h.runUntilIdle()
        #expect(counter.offsets.count > 20)
        #expect(counter.offsets.last == scroll.contentOffset.y)
        #expect(counter.offsets == counter.offsets.sorted())
    }
}
