import Testing
import Graphics
import UI
import Widgets

@Suite struct ScrollDemoTests {
    @Test func flingMovesThePictureAndOnlyDamageIsRedrawn() throws {
        let clock = ManualClock(now: 5)
        let window = Window(size: Size(width: 320, height: 240), clock: clock)
        let demo = ScrollDemoView(frame: window.bounds)
        window.addSubview(demo)
        let bitmap = Bitmap(width: 320, height: 240)
        let canvas = Canvas(target: bitmap)
        window.render(into: canvas)

        // Zoom in so the board is larger than the screen, then let the animation finish.
        demo.scrollView.setZoomScale(1, animated: true)
        while let deadline = window.nextDeadline {
            clock.now = deadline
            window.advance(to: deadline)
        }
        #expect(demo.scrollView.zoomScale == 1)
        window.render(into: canvas)
        let before = bitmap.copy()
        #expect(window.render(into: canvas).isEmpty)

        // A scripted fling: finger left and up at ~1500 pt/s, lifted while moving.
        var p = Point(x: 250, y: 200)
        let step = Point(x: -20, y: -15)
        window.dispatch([TouchEvent(slot: 0, phase: .began, location: p, timestamp: clock.now)])
        for _ in 0..<6 {
            clock.now += 1.0 / 60
            window.advance(to: clock.now)
            p = p + step
            window.dispatch([TouchEvent(slot: 0, phase: .moved, location: p, timestamp: clock.now)])
        }
        window.dispatch([TouchEvent(slot: 0, phase: .ended, location: p, timestamp: clock.now)])
        #expect(demo.scrollView.isDecelerating)
        var frames = 0
        while let deadline = window.nextDeadline, frames < 1000 {
            clock.now = deadline
            window.advance(to: deadline)
            let damage = window.render(into: canvas)
            if demo.scrollView.isDecelerating { #expect(!damage.isEmpty) }
            frames += 1
        }
        #expect(frames > 30)
        #expect(!demo.scrollView.isDecelerating)
        let offset = demo.scrollView.contentOffset
        #expect(offset.x > 200 && offset.y > 150)

        // The picture moved: many pixels differ, and what is on screen matches the board.
        var changed = 0
        for y in stride(from: 0, to: 240, by: 4) {
            for x in stride(from: 0, to: 320, by: 4) where bitmap.pixel(x: x, y: y) != before.pixel(x: x, y: y) {
                changed += 1
            }
        }
        #expect(changed > 500)
        for (x, y) in [(3, 230), (160, 5), (300, 120)] {
            let boardPoint = demo.board.convert(Point(x: Double(x) + 0.5, y: Double(y) + 0.5), from: nil)
            #expect(bitmap.color(x: x, y: y) == demo.board.color(at: boardPoint))
        }
    }
}

@Suite struct ScrollDemoZoomTests {
    @Test func doubleTapZoomsInAndTwoFingerTapZoomsOut() {
        let clock = ManualClock(now: 1)
        let window = Window(size: Size(width: 400, height: 400), clock: clock)
        let demo = ScrollDemoView(frame: window.bounds)
        window.addSubview(demo)
        let start = demo.scrollView.zoomScale
        #expect(start == 0.1)  // the whole board fits
        func send(_ events: [(TouchPhase, Point, Int)]) {
            window.dispatch(events.map { TouchEvent(slot: $0.2, phase: $0.0, location: $0.1, timestamp: clock.now) })
        }
        func wait(_ seconds: Double) {
            let end = clock.now + seconds
            while let d = window.nextDeadline, d <= end { clock.now = d; window.advance(to: d) }
            clock.now = end
        }
        for _ in 0..<2 {
            send([(.began, Point(x: 200, y: 200), 0)]); wait(0.05)
            send([(.ended, Point(x: 200, y: 200), 0)]); wait(0.1)
        }
        wait(1)
        #expect(abs(demo.scrollView.zoomScale - start * 1.5) < 1e-9)
        send([(.began, Point(x: 150, y: 200), 0), (.began, Point(x: 250, y: 200), 1)]); wait(0.05)
        send([(.ended, Point(x: 150, y: 200), 0), (.ended, Point(x: 250, y: 200), 1)])
        wait(1)
        #expect(abs(demo.scrollView.zoomScale - start) < 1e-9)
        #expect(window.nextDeadline == nil)
    }
}
