/// When the kiosk tells the TV what over HDMI-CEC, as a value with no device and no clock of its
/// own (the times are passed in, so the tests walk through them). The rules:
/// - the screen blanks → <Standby>, unless the TV is known to be off already or another source
///   has taken it (someone is watching something else: not ours to switch off);
/// - the screen wakes → <Image View On> (or Text View On) and <Active Source>;
/// - the owner switches the TV off with its remote while the screen is on (a <Standby> from the
///   TV, or a power report of standby that is not the TV still starting after our wake) → the
///   kiosk leaves it off until its own next wake: nothing it does meanwhile turns the TV on;
/// - the adapter gets its addresses late (the claim takes a moment, HDMI plugged in later) → what
///   the screen is doing now is sent once then.
public struct TVPowerPolicy: Equatable, Sendable {
    public struct Settings: Equatable, Sendable {
        public var standbyOnBlank = true
        /// nil: a wake sends only <Active Source>.
        public var viewOn: ViewOn? = .image
        public init(standbyOnBlank: Bool = true, viewOn: ViewOn? = .image) {
            self.standbyOnBlank = standbyOnBlank
            self.viewOn = viewOn
        }
    }

    public enum ViewOn: Equatable, Sendable { case image, text }

    /// What to send; the driver makes the message.
    public enum Send: Equatable, Sendable {
        case standby
        case viewOn(ViewOn)
        case activeSource
        case askPowerStatus
        /// Our own power, to a device that asked (<Give Device Power Status>).
        case reportPowerStatus(to: UInt8, on: Bool)
    }

    /// What the TV (or another device) said.
    public enum Heard: Equatable, Sendable {
        /// <Standby> addressed to us or to all.
        case standby
        case powerStatus(TVPowerState)
        /// <Active Source> or <Set Stream Path> naming a physical address.
        case activeSource(UInt16)
        case setStreamPath(UInt16)
        case requestActiveSource
        case givePowerStatus(from: UInt8)
    }

    public enum TVPowerState: String, Equatable, Sendable { case unknown, on, standby, turningOn = "turning on", turningOff = "turning off" }

    /// Seconds after a wake in which a report of standby is the TV still starting (many report
    /// standby, or nothing, for a few seconds after <Image View On>), not its owner's remote.
    public static let startingTime: Double = 15

    public let settings: Settings
    public private(set) var screenOn: Bool
    /// The TV's power as last heard (or as last asked for, until it says otherwise).
    public private(set) var tvPower: TVPowerState = .unknown
    /// The owner switched the TV off while the screen was on: it stays off until the next wake.
    public private(set) var ownerSwitchedOff = false
    /// Another source was made active since our wake.
    public private(set) var otherSourceActive = false
    /// The adapter has its addresses (messages can be sent).
    public private(set) var ready = false
    private var wokeAt: Double?

    public init(settings: Settings, screenOn: Bool) {
        self.settings = settings
        self.screenOn = screenOn
    }

    /// The screen was switched on or off.
    public mutating func screenChanged(on: Bool, now: Double) -> [Send] {
        guard on != screenOn else { return [] }
        screenOn = on
        if on {
            // Our wake: whatever the owner did before, the TV comes on with the screen.
            ownerSwitchedOff = false
            otherSourceActive = false
            wokeAt = now
        }
        return ready ? current() : []
    }

    /// The adapter has its physical and logical addresses (at the start, or again after HDMI was
    /// plugged in): the screen's state is sent the first time.
    public mutating func addressesReady(now: Double) -> [Send] {
        guard !ready else { return [] }
        ready = true
        if screenOn { wokeAt = now }
        return current() + [.askPowerStatus]
    }

    /// The adapter lost its addresses (HDMI unplugged): the state is sent again when it has them.
    public mutating func addressesLost() { ready = false }

    /// What to send for the screen's state now.
    private mutating func current() -> [Send] {
        if screenOn {
            if ownerSwitchedOff { return [] }
            if settings.viewOn != nil { tvPower = .turningOn }
            return (settings.viewOn.map { [Send.viewOn($0)] } ?? []) + [Send.activeSource]
        }
        guard settings.standbyOnBlank, !otherSourceActive, !ownerSwitchedOff, tvPower != .standby else { return [] }
        tvPower = .turningOff
        return [.standby]
    }

    /// A message sent came back acknowledged or not: a Standby the TV took means it is off.
    public mutating func delivered(_ send: Send, acknowledged: Bool) {
        switch send {
        case .standby: tvPower = acknowledged ? .standby : .unknown
        case .viewOn: if !acknowledged { tvPower = .unknown }
        default: break
        }
    }

    /// A message from the TV or another device; `ours` is our physical address.
    public mutating func heard(_ message: Heard, ours: UInt16, now: Double) -> [Send] {
        switch message {
        case .standby:
            if screenOn, !ownerSwitchedOff { ownerSwitchedOff = true }
            tvPower = .standby
            return []
        case .powerStatus(let state):
            let starting = wokeAt.map { now - $0 < Self.startingTime } ?? false
            if state == .standby, screenOn, !starting, tvPower != .turningOff { ownerSwitchedOff = true }
            tvPower = state
            return []
        case .activeSource(let address):
            if address != ours { otherSourceActive = true }
            return []
        case .setStreamPath(let address):
            // The TV's menu chose an input: ours → we answer as the active source.
            guard address == ours else {
                otherSourceActive = true
                return []
            }
            otherSourceActive = false
            return screenOn ? [.activeSource] : []
        case .requestActiveSource:
            return screenOn && !otherSourceActive && !ownerSwitchedOff ? [.activeSource] : []
        case .givePowerStatus(let from):
            return [.reportPowerStatus(to: from, on: screenOn)]
        }
    }
}
