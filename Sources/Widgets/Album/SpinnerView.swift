#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Graphics
import UI

/// A ring of dots with one bright dot going round: "still loading". Ticks ten times a second
/// only while it is visible in a window, so a loaded album schedules nothing.
public final class SpinnerView: View {
    public static let dotCount = 8
    static let tick = 0.1

    private var timer: ScheduledTimer?

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        isHidden = true
        isUserInteractionEnabled = false
    }

    /// Shows the spinner and keeps it turning; false hides it and stops its timer.
    public var isSpinning = false {
        didSet {
            guard isSpinning != oldValue else { return }
            isHidden = !isSpinning
            updateTimer()
        }
    }

    public override func didMoveToWindow() {
        updateTimer()
    }

    /// True while the spinner schedules frames (spinning and in a window).
    public var isAnimating: Bool { timer?.isValid ?? false }

    private func updateTimer() {
        let shouldRun = isSpinning && window != nil
        if shouldRun, !isAnimating, let scheduler = window?.scheduler {
            timer = scheduler.schedule(after: Self.tick, repeating: Self.tick) { [weak self] in self?.setNeedsDisplay() }
        } else if !shouldRun {
            timer?.invalidate()
            timer = nil
        }
    }

    public override func draw(in context: DrawContext) {
        let now = window?.scheduler.now ?? 0
        let lead = Int((now / Self.tick).rounded(.down)) % Self.dotCount
        let radius = min(bounds.width, bounds.height) / 2
        let dot = max(2, radius / 4)
        for i in 0..<Self.dotCount {
            let angle = Double(i) / Double(Self.dotCount) * 2 * Double.pi
            let c = Point(x: bounds.midX + cos(angle) * (radius - dot), y: bounds.midY + sin(angle) * (radius - dot))
            // The lead dot is brightest, the ones behind it fade.
            let age = (lead - i + Self.dotCount) % Self.dotCount
            let level = UInt8(255 - min(200, age * 28))
            context.fillEllipse(in: Rect(x: c.x - dot / 2, y: c.y - dot / 2, width: dot, height: dot),
                                color: Color(red: level, green: level, blue: level))
        }
    }
}
