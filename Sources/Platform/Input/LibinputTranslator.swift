import Graphics

/// One libinput event as plain values, read out of libinput's C event by `LibinputSource`
/// (no pointers here). Positions are panel pixels (libinput's `*_transformed`, calibration
/// applied); times are CLOCK_MONOTONIC seconds.
enum LibinputEvent: Equatable {
    case touchDown(slot: Int, x: Double, y: Double, time: Double)
    case touchMotion(slot: Int, x: Double, y: Double, time: Double)
    case touchUp(slot: Int, time: Double)
    /// libinput cancels the fingers of a device that goes away (before DEVICE_REMOVED).
    case touchCancel(slot: Int, time: Double)
    case touchFrame(time: Double)
    /// Relative motion in logical pixels ("right" is right on screen).
    case pointerMotion(dx: Double, dy: Double, time: Double)
    case pointerMotionAbsolute(x: Double, y: Double, time: Double)
    case pointerButton(code: UInt32, pressed: Bool, time: Double)
    case key(code: UInt32, pressed: Bool, time: Double)
    /// A device that could point went away (its held button will never be released).
    case pointerRemoved(time: Double)
    /// The seat was taken away: every finger down will never be lifted.
    case suspended(time: Double)
}

/// Turns libinput events into the app's `InputEvent`s in logical pixels: a pure state machine
/// (the fingers down and where, the mouse acting as one finger while its left button is held,
/// the keyboard's modifiers), so every rule is unit-tested without a device.
struct LibinputTranslator {
    static let leftButton: UInt32 = 0x110   // BTN_LEFT

    /// Update when the display's size or rotation changes.
    var mapping: ScreenMapping
    /// Fingers down, by slot, at their last logical position.
    private(set) var touches: [Int: Point] = [:]
    /// The mouse position (logical; starts in the middle) and whether its left button is held.
    private(set) var mouse: Point
    private(set) var mouseDown = false
    private var keys = KeyTranslator()

    init(mapping: ScreenMapping) {
        self.mapping = mapping
        mouse = Point(x: Double(mapping.logicalWidth) / 2, y: Double(mapping.logicalHeight) / 2)
    }

    mutating func translate(_ event: LibinputEvent) -> [InputEvent] {
        switch event {
        case .touchFrame(let time):
            return [.frame(time: time)]
        case let .touchDown(slot, x, y, time), let .touchMotion(slot, x, y, time):
            let p = mapping.logical(Point(x: x, y: y))
            touches[slot] = p
            let phase: TouchPhase = if case .touchDown = event { .down } else { .motion }
            return [.touch(slot: slot, phase: phase, location: p, time: time)]
        case let .touchUp(slot, time):
            // A lift for a finger never seen down (it went down before the seat was ours) has
            // no position; the views ignore a slot they do not know.
            return [.touch(slot: slot, phase: .up, location: touches.removeValue(forKey: slot) ?? .zero, time: time)]
        case let .touchCancel(slot, time):
            return [.touch(slot: slot, phase: .cancel, location: touches.removeValue(forKey: slot) ?? .zero, time: time)]
        case let .pointerMotion(dx, dy, time):
            mouse = mapping.clamped(Point(x: mouse.x + dx, y: mouse.y + dy))
            return mouseMoved(time: time)
        case let .pointerMotionAbsolute(x, y, time):
            mouse = mapping.clamped(mapping.logical(Point(x: x, y: y)))
            return mouseMoved(time: time)
        case let .pointerButton(code, pressed, time):
            // Only the left button is a finger; a second press or a release without a press
            // (the button was held when the device appeared) changes nothing.
            guard code == Self.leftButton, pressed != mouseDown else { return [] }
            mouseDown = pressed
            return [.touch(slot: InputEvent.mouseSlot, phase: pressed ? .down : .up, location: mouse, time: time),
                    .frame(time: time)]
        case let .key(code, pressed, time):
            return keys.translate(code: code, pressed: pressed).map { [.key($0, pressed: pressed, time: time)] } ?? []
        case .pointerRemoved(let time):
            guard mouseDown else { return [] }
            mouseDown = false
            return [.touch(slot: InputEvent.mouseSlot, phase: .cancel, location: mouse, time: time), .frame(time: time)]
        case .suspended(let time):
            guard !touches.isEmpty else { return [] }
            let cancelled = touches.sorted { $0.key < $1.key }.map {
                InputEvent.touch(slot: $0.key, phase: .cancel, location: $0.value, time: time)
            }
            touches.removeAll()
            return cancelled + [.frame(time: time)]
        }
    }

    /// The mouse as a finger moves only while its button is held.
    private func mouseMoved(time: Double) -> [InputEvent] {
        guard mouseDown else { return [] }
        return [.touch(slot: InputEvent.mouseSlot, phase: .motion, location: mouse, time: time), .frame(time: time)]
    }
}
