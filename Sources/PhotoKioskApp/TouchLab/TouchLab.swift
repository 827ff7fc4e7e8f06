import Basics
import Graphics
import UI
import Widgets

/// Attaches the touch lab to a screen: the overlay on top of whatever it shows, the gesture
/// probe beside the view tree, and the latency figure from the host. Also keeps the list of
/// recognized gestures for a replay's report.
public final class TouchLab {
    public let overlay: TouchOverlayView
    public let probe: GestureProbe
    /// Every gesture recognized so far, with its time.
    public private(set) var gestures: [(time: Double, gesture: RecognizedGesture)] = []
    /// Whether a four-finger tap shows and hides the overlay (not in kiosk mode).
    public var allowsToggle: Bool
    private unowned let host: ScreenHost
    private var probeTimer: ScheduledTimer?

    public init(host: ScreenHost, showsOverlay: Bool, allowsToggle: Bool) {
        self.host = host
        self.allowsToggle = allowsToggle
        let window = host.window
        overlay = TouchOverlayView(frame: window.bounds)
        overlay.isHidden = !showsOverlay
        probe = GestureProbe(size: window.bounds.size, clock: window.scheduler.clock)
        window.addSubview(overlay)
        host.overlayView = overlay
        probe.onGesture = { [unowned self] time, gesture in self.recognized(gesture, at: time) }
        // The host's hooks keep the lab alive as long as the host (the lab holds the host unowned).
        host.touchObserver = { events in
            self.overlay.observe(events)
            self.probe.observe(events)
            self.armProbe()
        }
        host.onTouchLatency = { seconds in self.overlay.recordLatency(seconds) }
        let previousResize = host.onResize
        host.onResize = { size in
            previousResize?(size)
            self.resize(to: size)
        }
    }

    /// The screen changed size.
    public func resize(to size: Size) {
        overlay.frame = Rect(size: size)
        probe.resize(to: size)
    }

    private func recognized(_ gesture: RecognizedGesture, at time: Double) {
        gestures.append((time, gesture))
        if case .fourFingerTap = gesture, allowsToggle {
            overlay.isHidden.toggle()
        }
        overlay.flash(gesture.label)
    }

    /// The probe's timers (double-tap interval, long press) run on the screen's scheduler.
    private func armProbe() {
        probeTimer?.invalidate()
        probeTimer = nil
        guard let deadline = probe.nextDeadline else { return }
        let scheduler = host.window.scheduler
        probeTimer = scheduler.schedule(after: deadline - scheduler.now) { [unowned self] in
            self.probeTimer = nil
            self.probe.advance(to: self.host.window.scheduler.now)
            self.armProbe()
        }
    }

    /// The gestures as report lines ("0.350 tap 120.0,80.0"), times from `origin`.
    public func reportLines(from origin: Double = 0) -> [String] {
        gestures.map { "\(seconds($0.time - origin)) \($0.gesture.label)" }
    }
}

/// Seconds to the millisecond; a gesture before `origin` counts from 0.
private func seconds(_ v: Double) -> String { decimalText(max(0, v), places: 3) }

/// One line counting gestures by kind, for the end of a report.
public enum TouchLabSummary {
    public static func counts(_ gestures: [RecognizedGesture]) -> String {
        var taps = 0, doubles = 0, longs = 0, pans = 0, pinches = 0, fours = 0
        for g in gestures {
            switch g {
            case .tap: taps += 1
            case .doubleTap: doubles += 1
            case .longPress: longs += 1
            case .pan: pans += 1
            case .pinch: pinches += 1
            case .fourFingerTap: fours += 1
            }
        }
        return "taps \(taps), double taps \(doubles), long presses \(longs), pans \(pans), pinches \(pinches), four-finger taps \(fours)"
    }
}
