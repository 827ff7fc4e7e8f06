import Basics
import Graphics
import UI

/// Draws what the touch panel reports on top of any screen: for every finger its slot, a trail
/// of recent positions, the current position and velocity; a header with the report rate, the
/// number of fingers and the latest touch-to-present latency; recognized gestures flash as
/// labels.
///
/// It is added last to the window and never hit-testable; it damages only the small areas it
/// changes (trail dots, markers, labels, the header line), so the screen below keeps its frame
/// times. When idle it runs no timer.
public final class TouchOverlayView: View {
    /// Seconds a gesture label stays.
    public static let labelDuration = 1.2
    static let tick = 1.0 / 30
    static let dotSize = 6.0
    static let markerSize = 34.0
    static let palette: [Color] = [Color(rgb: 0xFF4040), Color(rgb: 0x40FF40), Color(rgb: 0x4080FF), Color(rgb: 0xFFD040),
                                   Color(rgb: 0xFF40FF), Color(rgb: 0x40FFFF), Color(rgb: 0xFF9040), Color(rgb: 0xFFFFFF)]

    public var font: Font? {
        didSet { setNeedsDisplay() }
    }
    private var fingers: [Int: FingerTrail] = [:]
    private var rate = RateMeter()
    private var latency: Double?
    private var labels: [(text: String, until: Double)] = []
    private var header = ""
    private var timer: ScheduledTimer?

    public override init(frame: Rect) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
        font = try? Font.standard(pixelSize: 15)
        header = headerText(now: 0)
    }

    public override func hitTest(_ point: Point) -> View? { nil }

    /// Where the header line goes: a pill in the top right corner, wide enough for the longest
    /// header, so it leaves the screen's own controls in the top left (the album's "‹ Grid")
    /// uncovered and touchable.
    public var headerFrame: Rect {
        let width = min(bounds.width - 2 * Self.margin, (font?.width(of: Self.widestHeader) ?? 360) + 24)
        return Rect(x: bounds.maxX - width - Self.margin, y: Self.margin, width: width, height: (font?.lineHeight ?? 16) + 10)
    }
    static let margin = 8.0
    static let widestHeader = "touch 9999 Hz   fingers 10   latency 999.9 ms"

    private var now: Double { window?.scheduler.now ?? 0 }

    // MARK: Input

    /// One input frame, in window coordinates (the overlay fills the window).
    public func observe(_ events: [TouchEvent]) {
        guard let time = events.map(\.timestamp).max() else { return }
        rate.add(time)
        for e in events {
            switch e.phase {
            case .began:
                if let old = fingers[e.slot] { damageAll(of: old) }
                var f = FingerTrail(slot: e.slot)
                f.add(e.location, at: e.timestamp)
                fingers[e.slot] = f
                damageMarker(of: f)
            case .moved:
                guard var f = fingers[e.slot], f.isDown else { continue }
                damageMarker(of: f)
                f.add(e.location, at: e.timestamp)
                fingers[e.slot] = f
                damageDot(e.location)
                damageMarker(of: f)
            case .ended, .cancelled:
                guard var f = fingers[e.slot], f.isDown else { continue }
                damageMarker(of: f)
                if e.location != f.current { f.add(e.location, at: e.timestamp); damageDot(e.location) }
                f.lift(at: e.timestamp)
                fingers[e.slot] = f
                damageMarker(of: f)
            }
        }
        refreshHeader()
        startTicking()
    }

    /// The latest touch-to-present latency, in seconds.
    public func recordLatency(_ seconds: Double) {
        latency = seconds
    }

    /// Shows `text` for a moment (a recognized gesture).
    public func flash(_ text: String) {
        labels.append((text, now + Self.labelDuration))
        if labels.count > 4 { labels.removeFirst(labels.count - 4) }
        setNeedsDisplay(labelArea)
        startTicking()
    }

    /// Fingers on the panel now.
    public var fingerCount: Int { fingers.values.filter(\.isDown).count }

    /// True while something is drawn besides the header (trails, markers, labels).
    public var isShowingActivity: Bool { !fingers.isEmpty || !labels.isEmpty }

    // MARK: Time

    private func startTicking() {
        guard timer == nil, let scheduler = window?.scheduler else { return }
        timer = scheduler.schedule(after: Self.tick, repeating: Self.tick) { [weak self] in self?.step() }
    }

    private func step() {
        let now = self.now
        for slot in fingers.keys.sorted() {
            guard var f = fingers[slot] else { continue }
            let dropped = f.expire(now: now)
            for p in dropped { damageDot(p) }
            if f.isGone || (!f.isDown && f.points.count <= 1 && now - (f.liftedAt ?? now) > FingerTrail.trailDuration) {
                damageAll(of: fingers[slot]!)
                fingers[slot] = nil
            } else {
                if !dropped.isEmpty || f.isDown { damageMarker(of: f) }
                fingers[slot] = f
            }
        }
        let before = labels.count
        labels.removeAll { $0.until <= now }
        if labels.count != before { setNeedsDisplay(labelArea) }
        rate.trim(now: now)
        refreshHeader()
        if fingers.isEmpty && labels.isEmpty && rate.rate(now: now) == 0 {
            timer?.invalidate()
            timer = nil
        }
    }

    private func refreshHeader() {
        let text = headerText(now: now)
        guard text != header else { return }
        header = text
        setNeedsDisplay(headerFrame)
    }

    private func headerText(now: Double) -> String {
        let latencyText = latency.map { decimalText($0 * 1000, places: 1) + " ms" } ?? "-"
        return "touch \(rate.rate(now: now)) Hz   fingers \(fingerCount)   latency \(latencyText)"
    }

    // MARK: Damage

    private func dotRect(_ p: Point) -> Rect {
        Rect(x: p.x - Self.dotSize / 2, y: p.y - Self.dotSize / 2, width: Self.dotSize, height: Self.dotSize)
    }

    private func markerRect(_ p: Point) -> Rect {
        Rect(x: p.x - Self.markerSize / 2, y: p.y - Self.markerSize / 2, width: Self.markerSize, height: Self.markerSize)
    }

    /// The marker and its caption (slot, position, velocity) to its lower right.
    private func markerArea(_ p: Point) -> Rect {
        let line = font?.lineHeight ?? 16
        return markerRect(p).union(Rect(x: p.x + Self.markerSize / 2, y: p.y, width: 184, height: 2 * line + 4))
    }

    private var labelArea: Rect {
        let line = font?.lineHeight ?? 16
        let header = headerFrame
        return Rect(x: header.minX, y: header.maxY, width: header.width, height: 4 * (line + 4) + 8)
    }

    private func damageDot(_ p: Point) { setNeedsDisplay(dotRect(p)) }

    private func damageMarker(of f: FingerTrail) {
        if let p = f.current { setNeedsDisplay(markerArea(p)) }
    }

    private func damageAll(of f: FingerTrail) {
        for p in f.points { damageDot(p.position) }
        damageMarker(of: f)
    }

    // MARK: Drawing

    public override func draw(in context: DrawContext) {
        let line = font?.lineHeight ?? 16
        let header = headerFrame
        if context.needsDrawing(header) {
            context.fillRoundedRect(header, radius: header.height / 2, color: Color(rgb: 0x000000, alpha: 170))
            if let font { context.drawText(self.header, at: Point(x: header.minX + 12, y: header.minY + 5 + font.ascender), font: font, color: .white) }
        }
        for f in fingers.values.sorted(by: { $0.slot < $1.slot }) {
            let color = Self.palette[f.slot % Self.palette.count]
            for (i, sample) in f.points.enumerated() where context.needsDrawing(dotRect(sample.position)) {
                let age = Double(i + 1) / Double(f.points.count)
                context.fill(dotRect(sample.position), color: color.withAlpha(0.35 + 0.65 * age))
            }
            guard let p = f.current, context.needsDrawing(markerArea(p)) else { continue }
            context.stroke(markerRect(p), color: color.withAlpha(f.isDown ? 1 : 0.4), width: 3)
            context.fill(Rect(x: p.x - 1, y: p.y - 8, width: 2, height: 16), color: color)
            context.fill(Rect(x: p.x - 8, y: p.y - 1, width: 16, height: 2), color: color)
            guard let font else { continue }
            let v = f.velocity
            let origin = Point(x: p.x + Self.markerSize / 2 + 4, y: p.y + font.ascender)
            context.fill(Rect(x: origin.x - 2, y: p.y, width: 180, height: 2 * line + 4), color: Color(rgb: 0, alpha: 140))
            context.drawText("slot \(f.slot)  \(decimalText(p.x, places: 0)),\(decimalText(p.y, places: 0))", at: origin, font: font, color: color)
            context.drawText("v \(decimalText(v.x, places: 0)),\(decimalText(v.y, places: 0)) px/s", at: Point(x: origin.x, y: origin.y + line), font: font, color: color)
        }
        for (i, label) in labels.enumerated() {
            let area = labelArea
            let r = Rect(x: area.minX, y: area.minY + 8 + Double(i) * (line + 4), width: area.width, height: line + 2)
            guard context.needsDrawing(r), let font else { continue }
            context.fillRoundedRect(r, radius: r.height / 2, color: Color(rgb: 0x203060, alpha: 200))
            context.drawText(label.text, at: Point(x: r.minX + 12, y: r.minY + 1 + font.ascender), font: font, color: .white)
        }
    }
}
