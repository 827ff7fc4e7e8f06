import Basics
import Graphics
import UI

/// A gesture the touch lab saw, with what a tester wants to know about it.
public enum RecognizedGesture: Hashable, Sendable {
    case tap(at: Point)
    case doubleTap(at: Point)
    case longPress(at: Point)
    /// A pan that ended: its translation and its velocity at release (points per second).
    case pan(translation: Point, velocity: Point)
    /// A pinch that ended, with its final scale.
    case pinch(scale: Double)
    /// Four fingers tapped together (toggles the overlay outside kiosk mode).
    case fourFingerTap(at: Point)

    /// One line for the overlay and the replay report, stable enough to diff.
    public var label: String {
        switch self {
        case .tap(let p): return "tap \(decimalText(p.x, places: 1)),\(decimalText(p.y, places: 1))"
        case .doubleTap(let p): return "double-tap \(decimalText(p.x, places: 1)),\(decimalText(p.y, places: 1))"
        case .longPress(let p): return "long-press \(decimalText(p.x, places: 1)),\(decimalText(p.y, places: 1))"
        case let .pan(t, v): return "pan \(decimalText(t.x, places: 1)),\(decimalText(t.y, places: 1)) velocity \(decimalText(v.x, places: 0)),\(decimalText(v.y, places: 0))"
        case .pinch(let s): return "pinch scale \(decimalText(s, places: 3))"
        case .fourFingerTap(let p): return "four-finger-tap \(decimalText(p.x, places: 1)),\(decimalText(p.y, places: 1))"
        }
    }
}

/// Runs the UI's own gesture recognizers (tap, double tap, long press, pan, pinch, four-finger
/// tap) on a copy of every input frame, beside whatever the screen does with them: what a
/// tester sees is what the gesture stack recognizes, not a re-implementation of it.
///
/// The recognizers live in a private window that is never drawn; its timers (double-tap
/// interval, long-press delay) run on the same clock as the screen's window.
public final class GestureProbe {
    /// Called with the time and the gesture whenever one is recognized.
    public var onGesture: ((Double, RecognizedGesture) -> Void)?
    private let window: Window

    public init(size: Size, clock: any UIClock) {
        window = Window(size: size, clock: clock)
        let surface = View(frame: Rect(size: size))
        window.addSubview(surface)

        let double = TapGestureRecognizer(taps: 2) { [unowned self] r in self.report(.doubleTap(at: r.location(in: nil))) }
        let single = TapGestureRecognizer(taps: 1) { [unowned self] r in self.report(.tap(at: r.location(in: nil))) }
        single.require(toFail: double)
        let four = TapGestureRecognizer(taps: 1, touches: 4) { [unowned self] r in self.report(.fourFingerTap(at: r.location(in: nil))) }
        let long = LongPressGestureRecognizer { [unowned self] r in
            if r.state == .began { self.report(.longPress(at: r.location(in: nil))) }
        }
        // A held finger is a long press, not also a tap when it lifts.
        single.require(toFail: long)
        double.require(toFail: long)
        let pan = PanGestureRecognizer { [unowned self] r in
            if r.state == .ended { self.report(.pan(translation: r.translation(in: nil), velocity: r.velocity(in: nil))) }
        }
        let pinch = PinchGestureRecognizer { [unowned self] r in
            if r.state == .ended || r.state == .cancelled { self.report(.pinch(scale: r.scale)) }
        }
        for r in [double, single, four, long, pan, pinch] as [GestureRecognizer] {
            r.recognizesSimultaneously = { _, _ in true }
            surface.addGestureRecognizer(r)
        }
    }

    /// The screen changed size.
    public func resize(to size: Size) {
        window.frame = Rect(size: size)
        window.subviews.first?.frame = Rect(size: size)
    }

    /// One input frame, as the screen's window gets it.
    public func observe(_ events: [TouchEvent]) {
        window.dispatch(events)
    }

    /// When the recognizers next have timer work; nil when idle.
    public var nextDeadline: Double? { window.nextDeadline }

    public func advance(to now: Double) {
        window.advance(to: now)
    }

    private func report(_ gesture: RecognizedGesture) {
        onGesture?(window.scheduler.now, gesture)
    }
}

