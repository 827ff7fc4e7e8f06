/// What the kiosk's TV power logic needs of an HDMI-CEC adapter: its addresses and a way to send.
/// `CECAdapter` is the real one (/dev/cecN); the tests use their own and see every message.
public protocol TVLink: AnyObject {
    /// The adapter's physical address (0xffff: no HDMI sink seen).
    var physicalAddress: UInt16 { get }
    /// The logical address claimed; nil until the claim has finished.
    var logicalAddress: UInt8? { get }
    /// Queues `message`; its result arrives later as `CECIncoming.transmitted` (the loop is not
    /// held while the TV answers). `reply`: an opcode to wait for, which comes with the result.
    func send(_ message: CECMessage, reply: UInt8?) throws(PlatformError)
}

/// What the adapter reports, on the loop thread.
public enum CECIncoming: Equatable, Sendable {
    /// A message from another device.
    case received(CECMessage)
    /// The result of a message sent: acknowledged or not, and the reply asked for when it came.
    case transmitted(CECMessage, acknowledged: Bool, reply: CECMessage?)
    /// The physical address or the claimed logical address changed (HDMI plugged, claim done).
    case addressesChanged(physical: UInt16, logical: UInt8?)
    /// The kernel dropped messages the kiosk did not read in time.
    case lostMessages
}
