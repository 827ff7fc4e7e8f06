import Graphics
import Platform

/// Builds a recording from the live input stream: every touch, mouse-as-finger and key event
/// with its time from the first one, positions normalised to the panel, and the touchscreen's
/// description (name, size in millimetres, calibration) when one is connected.
public final class TouchRecorder {
    /// Slot that mouse presses are recorded in (the platform's mouse slot is outside the
    /// format's 0..<64).
    public static let mouseSlot = 63

    public private(set) var recording = TouchRecording()
    public var geometry: RecordingGeometry
    private var origin: Double?
    private var lastTime = 0.0

    public init(geometry: RecordingGeometry) {
        self.geometry = geometry
        recording.device = device(named: "", size: nil, calibration: [1, 0, 0, 0, 1, 0])
    }

    /// Adds one platform event (call it from the input handler, before the app sees it).
    public func add(_ event: InputEvent) {
        switch event {
        case let .touch(slot, phase, location, time):
            let s = slot == InputEvent.mouseSlot ? Self.mouseSlot : min(slot, 62)
            let n = geometry.normalised(location)
            switch phase {
            case .down: append(.down(slot: s, x: n.x, y: n.y), at: time)
            case .motion: append(.move(slot: s, x: n.x, y: n.y), at: time)
            case .up: append(.up(slot: s), at: time)
            case .cancel: append(.cancel(slot: s), at: time)
            }
        case .frame(let time):
            append(.frame, at: time)
        case let .key(key, pressed, time):
            append(.key(name: RecordedKey.name(key), pressed: pressed), at: time)
        case .deviceAdded(let info):
            // The touchscreen describes the recording; a keyboard or mouse only if nothing better.
            if info.isTouchscreen || recording.device?.name.isEmpty ?? true {
                recording.device = device(named: info.name, size: info.sizeMillimetres, calibration: info.calibration)
            }
        case .deviceRemoved:
            break
        }
    }

    /// A `mark NAME` line now (a replay writes a PNG there).
    public func mark(_ name: String, at time: Double) {
        append(.mark(name), at: time)
    }

    private func append(_ event: TouchRecording.Event, at time: Double) {
        let origin = self.origin ?? time
        self.origin = origin
        // Devices timestamp on their own; keep the file's times monotonic.
        let t = max(lastTime, time - origin)
        lastTime = t
        recording.entries.append(.init(time: t, event: event))
    }

    private func device(named name: String, size: Size?, calibration: [Double]) -> TouchRecording.Device {
        let panel = geometry.panelSize
        return TouchRecording.Device(name: name, sizeMillimetres: size.map { ($0.width, $0.height) },
                                     screen: (Int(panel.width), Int(panel.height)), rotation: geometry.rotation.rawValue,
                                     calibration: calibration.count == 6 ? calibration : [1, 0, 0, 0, 1, 0])
    }
}
