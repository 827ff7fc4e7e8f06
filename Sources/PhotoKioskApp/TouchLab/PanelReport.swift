import Basics
import Graphics
import Platform

/// What a panel integrator reads about the touchscreen behind a touch test: its axes and size,
/// how often it reports, which contact slots it used, and any finger it left down. Built from
/// the platform's input events as they arrive (`touch-test --report`).
///
/// Touch events do not say which device sent them, so the touch figures cover every
/// touchscreen on the seat; `touch-test --input-device NODE` measures one panel.
public struct PanelReport {
    /// Frames further apart than this belong to separate contacts (the finger was lifted or
    /// held still), not to a slow panel.
    static let contactGap = 0.25

    /// The touchscreens seen, in the order they were added.
    public private(set) var panels: [InputDeviceInfo] = []
    /// Frames that carried at least one touch.
    public private(set) var frames = 0
    /// Every contact slot that carried a touch.
    public private(set) var slotsSeen: Set<Int> = []
    /// The most fingers down together.
    public private(set) var mostAtOnce = 0
    /// Fingers down now (slot → last position, logical px).
    public private(set) var down: [Int: Point] = [:]
    public private(set) var cancelled = 0
    /// The smallest and largest position touched (logical px).
    public private(set) var touchedMin: Point?
    public private(set) var touchedMax: Point?
    /// Time between consecutive frames while a finger was down.
    private var intervals: [Double] = []
    private var frameHasTouch = false
    private var previousFrame: Double?

    public init() {}

    public mutating func observe(_ event: InputEvent) {
        switch event {
        case .deviceAdded(let info) where info.isTouchscreen:
            panels.removeAll { $0.node == info.node }
            panels.append(info)
        case let .touch(slot, phase, location, _) where slot != InputEvent.mouseSlot:
            frameHasTouch = true
            switch phase {
            case .down, .motion:
                down[slot] = location
                slotsSeen.insert(slot)
                mostAtOnce = max(mostAtOnce, down.count)
                touchedMin = Point(x: min(touchedMin?.x ?? location.x, location.x), y: min(touchedMin?.y ?? location.y, location.y))
                touchedMax = Point(x: max(touchedMax?.x ?? location.x, location.x), y: max(touchedMax?.y ?? location.y, location.y))
            case .up:
                down[slot] = nil
            case .cancel:
                down[slot] = nil
                cancelled += 1
            }
        case .frame(let time):
            guard frameHasTouch else { return }
            frameHasTouch = false
            frames += 1
            if let previous = previousFrame, time > previous, time - previous < Self.contactGap {
                intervals.append(time - previous)
            }
            previousFrame = down.isEmpty ? nil : time
        default:
            break
        }
    }

    /// Frames per second while touching: the median interval's inverse (a pause or a slow
    /// frame does not drag it down); nil before two frames of one contact.
    public var reportRate: Double? {
        guard !intervals.isEmpty else { return nil }
        let sorted = intervals.sorted()
        let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        return median > 0 ? 1 / median : nil
    }

    /// The report's lines; `panelSize` is the screen in panel pixels (before rotation), for
    /// pixels per millimetre.
    public func lines(panelSize: Size) -> [String] {
        var lines: [String] = []
        if panels.isEmpty { lines.append("panel: no touchscreen was added") }
        for panel in panels {
            var line = "panel \(panel.name) (\(panel.node)): "
            line += [("x", panel.axisX), ("y", panel.axisY)].map { axis, range in
                guard let range else { return "\(axis) range unknown" }
                return "\(axis) \(range.minimum)..\(range.maximum)"
                    + (range.resolution > 0 ? " (\(range.resolution) units/mm)" : " (no resolution)")
            }.joined(separator: ", ")
            if let mm = panel.sizeMillimetres {
                line += "; size \(decimalText(mm.width, places: 1))x\(decimalText(mm.height, places: 1)) mm from libinput"
                    + " = \(decimalText(panelSize.width / mm.width, places: 2))x\(decimalText(panelSize.height / mm.height, places: 2)) px/mm"
            } else {
                line += "; size unknown to libinput (no resolution: offsets in px)"
            }
            line += "; calibration " + CalibrationFit.udevValue(panel.calibration)
            lines.append(line)
        }
        let rate = reportRate.map { "report rate \(decimalText($0, places: 1)) Hz (median of \(intervals.count) intervals)" }
            ?? "report rate unknown (no two frames within one contact)"
        lines.append("touch frames \(frames), \(rate)")
        lines.append(slotsSeen.isEmpty ? "contact slots seen: none"
            : "contact slots seen \(slotsSeen.sorted().map(String.init).joined(separator: ",")) (at most \(mostAtOnce) at once)")
        if let low = touchedMin, let high = touchedMax {
            lines.append("touched x \(decimalText(low.x, places: 1))..\(decimalText(high.x, places: 1)) px, "
                + "y \(decimalText(low.y, places: 1))..\(decimalText(high.y, places: 1)) px")
        }
        if cancelled > 0 { lines.append("touches cancelled \(cancelled)") }
        lines.append(down.isEmpty ? "fingers left down: none"
            : "fingers left down: " + down.sorted { $0.key < $1.key }.map {
                "slot \($0.key) at \(decimalText($0.value.x, places: 1)),\(decimalText($0.value.y, places: 1))"
            }.joined(separator: ", "))
        return lines
    }
}
