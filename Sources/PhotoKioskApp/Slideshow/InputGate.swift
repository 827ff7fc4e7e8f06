import Platform

/// Which input events reach the views: a touch that stops the slideshow or wakes a dark screen
/// goes no further, and neither do its moves and its lift.
struct InputGate {
    /// Slots with a finger down, and those whose touch was swallowed.
    private var fingersDown: Set<Int> = []
    private var swallowed: Set<Int> = []

    /// Whether `event` goes on to the views. `began` is asked when a touch begins or a key is
    /// pressed, and answers whether it is delivered; `ended` is told when a touch or key ends.
    mutating func admits(_ event: InputEvent, began: () -> Bool, ended: () -> Void) -> Bool {
        switch event {
        case let .touch(slot, phase, _, _):
            switch phase {
            case .down:
                guard !fingersDown.contains(slot) else { return !swallowed.contains(slot) }
                fingersDown.insert(slot)
                if began() { return true }
                swallowed.insert(slot)
                return false
            case .motion:
                return !swallowed.contains(slot)
            case .up, .cancel:
                if fingersDown.remove(slot) != nil { ended() }
                return swallowed.remove(slot) == nil
            }
        case let .key(_, pressed, _):
            guard pressed else { return true }
            let deliver = began()
            ended()
            return deliver
        case .frame, .deviceAdded, .deviceRemoved:
            return true
        }
    }
}
