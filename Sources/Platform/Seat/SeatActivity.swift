/// The seat's enable/disable life as pure logic: which events lead to which actions, so the
/// libseat callbacks stay thin and the rules are testable without a seat.
///
/// libseat sends enable_seat once the seat is ours (devices may be opened), and disable_seat
/// when it is taken away (VT switch): devices must stop being used and the event must be
/// acknowledged (libseat_disable_seat) soon, or the seat manager revokes them anyway.
public struct SeatActivity: Equatable, Sendable {
    public enum State: Equatable, Sendable {
        /// Opened, but libseat has not said the seat is ours yet.
        case pending
        case enabled
        case disabled
        case closed
    }

    public enum Event: Equatable, Sendable {
        case enable, disable, close
    }

    public enum Action: Equatable, Sendable {
        /// Stop using devices: the display stops drawing, input is suspended.
        case pauseDevices
        /// Take devices again: the display sets its mode and redraws, input resumes.
        case resumeDevices
        /// Call libseat_disable_seat.
        case acknowledgeDisable
    }

    public private(set) var state: State = .pending

    public init() {}

    /// Devices may be opened and used now.
    public var isEnabled: Bool { state == .enabled }

    /// Moves to the state `event` leads to and returns what must be done, in order.
    public mutating func handle(_ event: Event) -> [Action] {
        switch (state, event) {
        case (.closed, _):
            return []
        case (_, .close):
            state = .closed
            return []
        case (.pending, .enable):
            // The first enable: nothing was opened yet, so there is nothing to resume.
            state = .enabled
            return []
        case (.disabled, .enable):
            state = .enabled
            return [.resumeDevices]
        case (.enabled, .enable):
            return []
        case (.enabled, .disable):
            state = .disabled
            return [.pauseDevices, .acknowledgeDisable]
        case (.pending, .disable), (.disabled, .disable):
            // Nothing in use; the seat manager still waits for the acknowledgement.
            state = .disabled
            return [.acknowledgeDisable]
        }
    }
}
