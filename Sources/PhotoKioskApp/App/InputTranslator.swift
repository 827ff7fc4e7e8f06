import Graphics
import Platform
import UI

/// Turns the platform's input events into the UI's: touches are collected until the hardware's
/// frame marker and delivered together (a pinch's two fingers move in one frame); keys map to
/// the UI's navigation keys. Platform and UI never see each other's types.
struct InputTranslator {
    private var pending: [TouchEvent] = []

    enum Output {
        case touches([TouchEvent])
        case key(KeyEvent)
        case quit
        case none
    }

    mutating func translate(_ event: InputEvent) -> Output {
        switch event {
        case let .touch(slot, phase, location, time):
            pending.append(TouchEvent(slot: slot, phase: Self.phase(phase), location: location, timestamp: time))
            // A mouse event is a frame of its own: libinput's source follows each with a frame
            // marker (which then finds nothing pending), but a hand-written recording may not.
            if slot == InputEvent.mouseSlot { return flush() }
            return .none
        case .frame:
            return flush()
        case let .key(key, pressed, _):
            guard pressed else { return .none }
            switch key {
            case .left: return .key(.left)
            case .right: return .key(.right)
            case .up: return .key(.up)
            case .down: return .key(.down)
            case .enter: return .key(.enter)
            case .escape: return .key(.escape)
            case .q, .quitChord: return .quit
            case .other(let code): return .key(.other(Int(code)))
            }
        case .deviceAdded, .deviceRemoved:
            return .none
        }
    }

    private mutating func flush() -> Output {
        guard !pending.isEmpty else { return .none }
        defer { pending.removeAll() }
        return .touches(pending)
    }

    static func phase(_ phase: Platform.TouchPhase) -> UI.TouchPhase {
        switch phase {
        case .down: return .began
        case .motion: return .moved
        case .up: return .ended
        case .cancel: return .cancelled
        }
    }
}
