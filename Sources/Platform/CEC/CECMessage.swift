/// One HDMI-CEC message: the header (initiator and destination logical addresses), the opcode
/// and its operands, built and read without a device (the unit tests check them byte by byte).
public struct CECMessage: Equatable, Sendable, CustomStringConvertible {
    public var initiator: UInt8
    public var destination: UInt8
    /// nil: a poll (a header byte alone).
    public var opcode: UInt8?
    public var operands: [UInt8]

    public init(from initiator: UInt8, to destination: UInt8, opcode: UInt8?, operands: [UInt8] = []) {
        self.initiator = initiator & 0xf
        self.destination = destination & 0xf
        self.opcode = opcode
        self.operands = operands
    }

    /// The bytes on the wire, header first; nil when they are not a message (none, or over 16).
    public init?(bytes: [UInt8]) {
        guard let header = bytes.first, bytes.count <= 16 else { return nil }
        self.init(from: header >> 4, to: header & 0xf, opcode: bytes.count > 1 ? bytes[1] : nil,
                  operands: Array(bytes.dropFirst(2)))
    }

    public var bytes: [UInt8] { [initiator << 4 | destination] + (opcode.map { [$0] } ?? []) + operands }

    // MARK: Addresses and opcodes (HDMI 1.4b, CEC supplement)

    public static let tv: UInt8 = 0
    public static let broadcast: UInt8 = 0xf
    public static let unregistered: UInt8 = 0xf

    public enum Opcode {
        public static let featureAbort: UInt8 = 0x00
        public static let imageViewOn: UInt8 = 0x04
        public static let textViewOn: UInt8 = 0x0d
        public static let standby: UInt8 = 0x36
        public static let activeSource: UInt8 = 0x82
        public static let requestActiveSource: UInt8 = 0x85
        public static let setStreamPath: UInt8 = 0x86
        public static let givePowerStatus: UInt8 = 0x8f
        public static let reportPowerStatus: UInt8 = 0x90
        public static let inactiveSource: UInt8 = 0x9d
    }

    /// <Report Power Status>'s operand.
    public enum PowerStatus: UInt8, Sendable, CustomStringConvertible {
        case on = 0, standby = 1, turningOn = 2, turningOff = 3
        public var description: String {
            switch self {
            case .on: "on"
            case .standby: "standby"
            case .turningOn: "turning on"
            case .turningOff: "turning off"
            }
        }
    }

    // MARK: The messages the kiosk sends

    public static func standby(from: UInt8, to: UInt8 = tv) -> CECMessage { CECMessage(from: from, to: to, opcode: Opcode.standby) }
    public static func imageViewOn(from: UInt8) -> CECMessage { CECMessage(from: from, to: tv, opcode: Opcode.imageViewOn) }
    public static func textViewOn(from: UInt8) -> CECMessage { CECMessage(from: from, to: tv, opcode: Opcode.textViewOn) }
    /// Broadcast: the source at `physicalAddress` is the one to show.
    public static func activeSource(from: UInt8, physicalAddress: UInt16) -> CECMessage {
        CECMessage(from: from, to: broadcast, opcode: Opcode.activeSource,
                   operands: [UInt8(physicalAddress >> 8), UInt8(physicalAddress & 0xff)])
    }
    public static func givePowerStatus(from: UInt8, to: UInt8 = tv) -> CECMessage {
        CECMessage(from: from, to: to, opcode: Opcode.givePowerStatus)
    }
    public static func reportPowerStatus(from: UInt8, to: UInt8, _ status: PowerStatus) -> CECMessage {
        CECMessage(from: from, to: to, opcode: Opcode.reportPowerStatus, operands: [status.rawValue])
    }

    // MARK: Reading

    /// The physical address in <Active Source>, <Set Stream Path> or <Inactive Source>.
    public var addressOperand: UInt16? {
        guard operands.count >= 2 else { return nil }
        return UInt16(operands[0]) << 8 | UInt16(operands[1])
    }

    /// The status in <Report Power Status>.
    public var powerStatus: PowerStatus? {
        guard opcode == Opcode.reportPowerStatus, let first = operands.first else { return nil }
        return PowerStatus(rawValue: first)
    }

    /// "4.0.0.0", as HDMI writes a physical address; "f.f.f.f" is none.
    public static func addressText(_ address: UInt16) -> String {
        [12, 8, 4, 0].map { String((address >> UInt16($0)) & 0xf, radix: 16) }.joined(separator: ".")
    }

    /// "4->0 Standby", for logs and `doctor`.
    public var description: String {
        let route = "\(String(initiator, radix: 16))->\(destination == Self.broadcast ? "all" : String(destination, radix: 16))"
        guard let opcode else { return "\(route) poll" }
        let name: String = switch opcode {
        case Opcode.featureAbort: "Feature Abort"
        case Opcode.imageViewOn: "Image View On"
        case Opcode.textViewOn: "Text View On"
        case Opcode.standby: "Standby"
        case Opcode.activeSource: "Active Source"
        case Opcode.requestActiveSource: "Request Active Source"
        case Opcode.setStreamPath: "Set Stream Path"
        case Opcode.givePowerStatus: "Give Device Power Status"
        case Opcode.reportPowerStatus: "Report Power Status"
        case Opcode.inactiveSource: "Inactive Source"
        default: "opcode 0x\(String(opcode, radix: 16))"
        }
        let detail = powerStatus.map { " \($0)" }
            ?? ([Opcode.activeSource, Opcode.setStreamPath, Opcode.inactiveSource].contains(opcode)
                ? addressOperand.map { " \(Self.addressText($0))" } ?? "" : "")
        return "\(route) \(name)\(detail)"
    }
}
