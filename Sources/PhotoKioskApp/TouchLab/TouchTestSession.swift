import Basics
import Graphics

/// The touch test's bookkeeping, free of views: targets to tap in turn, each finger's samples,
/// and the figures a panel integrator needs (per-target offset, misses, doubled taps, jitter
/// while holding still, edge reachability, a suggested calibration matrix).
public struct TouchTestSession {
    /// A second tap this soon after the previous one, close to it, is the panel bouncing.
    public static let doubleInterval = 0.25
    /// A hold at least this long counts for jitter.
    public static let holdForJitter = 0.2

    public struct Tap: Equatable, Sendable {
        public var location: Point
        public var samples: [Point]
        public var start: Double
        public var end: Double
    }

    public enum Outcome: Equatable, Sendable {
        case pending
        case hit(offset: Point)
        case missed(offset: Point)
    }

    public let targets: [Point]
    public let geometry: RecordingGeometry
    /// The panel's size in millimetres, when the device reports it.
    public var panelMillimetres: Size?
    /// The calibration matrix in use while testing.
    public var currentCalibration: [Double]
    public private(set) var outcomes: [Outcome]
    public private(set) var doubled: [Int]
    public private(set) var jitter: [Double?]
    public private(set) var currentIndex = 0
    /// Nearest any finger came to the left, top, right and bottom edges (logical px).
    public private(set) var edgeDistance: [Double]
    private var down: [Int: Tap] = [:]
    private var lastTap: (tap: Tap, target: Int)?

    public init(targets: [Point], geometry: RecordingGeometry, panelMillimetres: Size? = nil,
                currentCalibration: [Double] = [1, 0, 0, 0, 1, 0]) {
        self.targets = targets
        self.geometry = geometry
        self.panelMillimetres = panelMillimetres
        self.currentCalibration = currentCalibration
        outcomes = Array(repeating: .pending, count: targets.count)
        doubled = Array(repeating: 0, count: targets.count)
        jitter = Array(repeating: nil, count: targets.count)
        edgeDistance = Array(repeating: .infinity, count: 4)
    }

    /// A 3×3 grid of targets at 6 %, 50 % and 94 % of each axis (the outer ones test the edges),
    /// row by row.
    public static func gridTargets(size: Size) -> [Point] {
        let stops = [0.06, 0.5, 0.94]
        return stops.flatMap { fy in stops.map { fx in Point(x: size.width * fx, y: size.height * fy) } }
    }

    public var isComplete: Bool { currentIndex >= targets.count }
    public var currentTarget: Point? { isComplete ? nil : targets[currentIndex] }

    /// A tap further than this from its target is a miss: 10 mm, or 8 % of the short side.
    public var missRadius: Double {
        if let mm = millimetresPerPixel { return 10 / max(mm.x, mm.y) }
        return 0.08 * min(geometry.logicalSize.width, geometry.logicalSize.height)
    }

    // MARK: Input

    public mutating func began(slot: Int, at p: Point, time: Double) {
        down[slot] = Tap(location: p, samples: [p], start: time, end: time)
        reach(p)
    }

    public mutating func moved(slot: Int, to p: Point, time: Double) {
        guard down[slot] != nil else { return }
        down[slot]!.samples.append(p)
        down[slot]!.end = time
        reach(p)
    }

    /// A lift; returns the target index the tap counted for, if any.
    @discardableResult
    public mutating func ended(slot: Int, at p: Point, time: Double, cancelled: Bool = false) -> Int? {
        guard var tap = down.removeValue(forKey: slot) else { return nil }
        tap.end = time
        if p != tap.samples.last { tap.samples.append(p) }
        guard !cancelled else { return nil }
        if let last = lastTap, tap.start - last.tap.end <= Self.doubleInterval,
           tap.location.distance(to: last.tap.location) <= missRadius / 2 {
            doubled[last.target] += 1
            return nil
        }
        guard !isComplete else { return nil }
        let index = currentIndex
        let offset = tap.location - targets[index]
        let hit = offset.length <= missRadius
        outcomes[index] = hit ? .hit(offset: offset) : .missed(offset: offset)
        // A miss may be a slide, not a finger holding still.
        if hit && tap.end - tap.start >= Self.holdForJitter { jitter[index] = Self.rms(tap.samples) }
        lastTap = (tap, index)
        currentIndex += 1
        return index
    }

    private mutating func reach(_ p: Point) {
        let s = geometry.logicalSize
        let d = [p.x, p.y, s.width - 1 - p.x, s.height - 1 - p.y]
        for i in 0..<4 { edgeDistance[i] = min(edgeDistance[i], max(0, d[i])) }
    }

    /// Root-mean-square distance of the samples from their mean.
    static func rms(_ samples: [Point]) -> Double {
        guard !samples.isEmpty else { return 0 }
        let mean = samples.reduce(Point.zero, +) / Double(samples.count)
        let sum = samples.reduce(0.0) { $0 + $1.distance(to: mean) * $1.distance(to: mean) }
        return (sum / Double(samples.count)).squareRoot()
    }

    // MARK: Figures

    /// Millimetres per logical pixel along x and y, when the panel size is known.
    public var millimetresPerPixel: Point? {
        guard let mm = panelMillimetres else { return nil }
        let panel = geometry.panelSize
        let px = mm.width / panel.width, py = mm.height / panel.height
        return geometry.rotation.swapsAxes ? Point(x: py, y: px) : Point(x: px, y: py)
    }

    /// The hits' mean offset (logical px).
    public var meanOffset: Point? {
        let hits = outcomes.compactMap { if case .hit(let o) = $0 { return o } else { return nil } }
        guard !hits.isEmpty else { return nil }
        return hits.reduce(Point.zero, +) / Double(hits.count)
    }

    /// The calibration matrix that would move the hits onto their targets; nil with fewer than
    /// three hits not on one line.
    public var fittedCalibration: [Double]? {
        var reported: [(x: Double, y: Double)] = [], aimed: [(x: Double, y: Double)] = []
        for (i, o) in outcomes.enumerated() {
            guard case .hit(let offset) = o else { continue }
            reported.append(geometry.normalised(targets[i] + offset))
            aimed.append(geometry.normalised(targets[i]))
        }
        guard let a = CalibrationFit.affine(from: reported, to: aimed) else { return nil }
        return CalibrationFit.compose(a, currentCalibration)
    }

    /// Whether the taps are consistently off: the mean offset exceeds 1 mm (3 px when the size
    /// is unknown).
    public var needsCalibration: Bool {
        guard let mean = meanOffset else { return false }
        if let mm = millimetresPerPixel { return Point(x: mean.x * mm.x, y: mean.y * mm.y).length > 1 }
        return mean.length > 3
    }

    /// A distance as "1.2 mm" when the size is known, else "9.6 px".
    func describe(_ v: Point) -> String {
        if let mm = millimetresPerPixel {
            return "\(decimalText(v.x * mm.x, places: 1)),\(decimalText(v.y * mm.y, places: 1)) mm"
        }
        return "\(decimalText(v.x, places: 1)),\(decimalText(v.y, places: 1)) px"
    }

    func describe(length v: Double, axis: Int = 0) -> String {
        if let mm = millimetresPerPixel { return "\(decimalText(v * (axis == 0 ? mm.x : mm.y), places: 1)) mm" }
        return "\(decimalText(v, places: 1)) px"
    }

    /// Each target's offset in logical px whatever the panel's size ("-" when not tapped), for
    /// comparing with where a script put the touches.
    public func pixelOffsetLine() -> String {
        "target offsets px: " + outcomes.enumerated().map { i, outcome in
            switch outcome {
            case .pending: return "\(i + 1) -"
            case .hit(let o), .missed(let o): return "\(i + 1) \(decimalText(o.x, places: 1)),\(decimalText(o.y, places: 1))"
            }
        }.joined(separator: "; ")
    }

    /// The report a panel integrator reads (also what the screen shows at the end).
    public func reportLines(deviceName: String = "") -> [String] {
        var lines = ["touch test: \(targets.count) targets, screen \(Int(geometry.logicalSize.width))x\(Int(geometry.logicalSize.height)) rotation \(geometry.rotation.rawValue)"
            + (panelMillimetres.map { ", panel \(decimalText($0.width, places: 1))x\(decimalText($0.height, places: 1)) mm" } ?? ", panel size unknown (offsets in px)")]
        for (i, target) in targets.enumerated() {
            var line = "target \(i + 1) at \(Int(target.x)),\(Int(target.y)): "
            switch outcomes[i] {
            case .pending: line += "not tapped"
            case .hit(let o): line += "offset \(describe(o))"
            case .missed(let o): line += "MISSED (offset \(describe(o)))"
            }
            if doubled[i] > 0 { line += ", doubled \(doubled[i])×" }
            if let j = jitter[i] { line += ", jitter \(describe(length: j))" }
            lines.append(line)
        }
        let missed = outcomes.filter { if case .missed = $0 { return true } else { return false } }.count
        let pending = outcomes.filter { $0 == .pending }.count
        lines.append("missed \(missed), doubled \(doubled.reduce(0, +)), not tapped \(pending)")
        if let mean = meanOffset { lines.append("mean offset \(describe(mean))") }
        let held = jitter.compactMap { $0 }
        if let worst = held.max() { lines.append("jitter while holding: worst \(describe(length: worst)) over \(held.count) holds") }
        let names = ["left", "top", "right", "bottom"]
        let reach = (0..<4).map { i in
            "\(names[i]) " + (edgeDistance[i].isFinite ? describe(length: edgeDistance[i], axis: i % 2) : "never touched")
        }
        lines.append("edge reach (closest touch to each edge): " + reach.joined(separator: ", "))
        if let m = fittedCalibration {
            if needsCalibration {
                lines.append("taps are consistently off; suggested calibration (udev rule):")
                let match = deviceName.isEmpty ? "" : "ATTRS{name}==\"\(deviceName)\", "
                lines.append("  \(match)ENV{LIBINPUT_CALIBRATION_MATRIX}=\"\(CalibrationFit.udevValue(m))\"")
            } else {
                lines.append("calibration looks right (fitted matrix \(CalibrationFit.udevValue(m)))")
            }
        }
        return lines
    }
}
