/// Turns Linux key codes (linux/input-event-codes.h) into `Key`s, tracking Ctrl and Alt for
/// the Ctrl+Alt+Backspace chord.
struct KeyTranslator {
    // Linux key codes; stable kernel ABI.
    static let esc: UInt32 = 1, backspace: UInt32 = 14, q: UInt32 = 16, enter: UInt32 = 28
    static let leftCtrl: UInt32 = 29, leftAlt: UInt32 = 56, keypadEnter: UInt32 = 96
    static let rightCtrl: UInt32 = 97, rightAlt: UInt32 = 100
    static let up: UInt32 = 103, left: UInt32 = 105, right: UInt32 = 106, down: UInt32 = 108

    private var held: Set<UInt32> = []

    /// The key for a press or release of `code`, or nil for modifiers (they only set state).
    mutating func translate(code: UInt32, pressed: Bool) -> Key? {
        if pressed { held.insert(code) } else { held.remove(code) }
        switch code {
        case Self.leftCtrl, Self.rightCtrl, Self.leftAlt, Self.rightAlt: return nil
        case Self.left: return .left
        case Self.right: return .right
        case Self.up: return .up
        case Self.down: return .down
        case Self.enter, Self.keypadEnter: return .enter
        case Self.esc: return .escape
        case Self.q: return .q
        case Self.backspace:
            let ctrl = held.contains(Self.leftCtrl) || held.contains(Self.rightCtrl)
            let alt = held.contains(Self.leftAlt) || held.contains(Self.rightAlt)
            return ctrl && alt ? .quitChord : .other(code)
        default: return .other(code)
        }
    }
}
