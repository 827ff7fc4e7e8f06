import Graphics
import UI

/// The touch-test screen: a dark canvas with a grid of targets to tap in turn (the current one
/// highlighted), and the figures once every target was tapped. No photo UI.
public final class TouchTestView: View {
    public private(set) var session: TouchTestSession
    /// Shown in the suggested udev rule.
    public var deviceName = ""
    /// Called once, when the last target was tapped.
    public var onComplete: ((TouchTestSession) -> Void)?
    private let font = try? Font.standard(pixelSize: 16)
    static let targetRadius = 22.0

    public init(frame: Rect, session: TouchTestSession) {
        self.session = session
        super.init(frame: frame)
        backgroundColor = Color(rgb: 0x101418)
    }

    /// The panel's size became known (a touchscreen was connected).
    public func setPanel(millimetres: Size?, calibration: [Double], name: String) {
        session.panelMillimetres = millimetres
        session.currentCalibration = calibration
        deviceName = name
        setNeedsDisplay()
    }

    public override func touchesBegan(_ touches: [Touch]) {
        for t in touches { session.began(slot: t.slot, at: t.location, time: t.timestamp) }
    }

    public override func touchesMoved(_ touches: [Touch]) {
        for t in touches { session.moved(slot: t.slot, to: t.location, time: t.timestamp) }
    }

    public override func touchesEnded(_ touches: [Touch]) { lift(touches, cancelled: false) }
    public override func touchesCancelled(_ touches: [Touch]) { lift(touches, cancelled: true) }

    private func lift(_ touches: [Touch], cancelled: Bool) {
        let wasComplete = session.isComplete
        for t in touches {
            guard let index = session.ended(slot: t.slot, at: t.location, time: t.timestamp, cancelled: cancelled) else { continue }
            setNeedsDisplay(targetArea(session.targets[index]))
            if let next = session.currentTarget { setNeedsDisplay(targetArea(next)) }
        }
        if session.isComplete && !wasComplete {
            setNeedsDisplay()
            onComplete?(session)
        }
    }

    /// Breaks a line at spaces so it fits `width` (the udev rule is long on a small screen).
    static func wrap(_ line: String, width: Double, font: Font) -> [String] {
        guard font.width(of: line) > width else { return [line] }
        var lines: [String] = [], current = ""
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if !current.isEmpty && font.width(of: candidate) > width {
                lines.append(current)
                current = "    " + word
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    private func targetArea(_ p: Point) -> Rect {
        let r = Self.targetRadius + 4
        return Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r)
    }

    public override func draw(in context: DrawContext) {
        for (i, p) in session.targets.enumerated() where context.needsDrawing(targetArea(p)) {
            let color: Color
            switch session.outcomes[i] {
            case .pending: color = i == session.currentIndex ? Color(rgb: 0xFFD040) : Color(rgb: 0x506070)
            case .hit: color = Color(rgb: 0x40C060)
            case .missed: color = Color(rgb: 0xE04040)
            }
            let r = Self.targetRadius
            context.stroke(Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r), color: color, width: i == session.currentIndex ? 4 : 2)
            context.fill(Rect(x: p.x - 1, y: p.y - r, width: 2, height: 2 * r), color: color)
            context.fill(Rect(x: p.x - r, y: p.y - 1, width: 2 * r, height: 2), color: color)
        }
        guard let font else { return }
        let line = font.lineHeight + 2
        let width = bounds.width * 0.9
        let text = (session.isComplete ? session.reportLines(deviceName: deviceName)
            : ["Tap target \(session.currentIndex + 1) of \(session.targets.count) (the yellow one)."])
            .flatMap { Self.wrap($0, width: width - 12, font: font) }
        let block = Rect(x: bounds.width * 0.05, y: bounds.height * 0.15, width: width,
                         height: Double(text.count) * line + 12)
        guard context.needsDrawing(block) else { return }
        if session.isComplete { context.fill(block, color: Color(rgb: 0x000000, alpha: 200)) }
        for (i, s) in text.enumerated() {
            context.drawText(font.truncated(s, toFit: block.width - 12), at: Point(x: block.minX + 6, y: block.minY + 6 + font.ascender + Double(i) * line),
                             font: font, color: .white)
        }
    }
}
