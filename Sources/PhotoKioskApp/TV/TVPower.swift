import Logging
import Platform

/// The TV switched with the screen over HDMI-CEC: `TVPowerPolicy` decides, this sends through a
/// `TVLink` (the adapter) and hears what comes back. A TV that does not answer is one log line.
public final class TVPower {
    public let link: any TVLink
    public private(set) var policy: TVPowerPolicy
    /// "received 0->4 Standby" / "sent 4->0 Image View On (acknowledged)": the last message, for
    /// the information overlay and logs.
    public private(set) var lastMessage: String?
    private let clock: () -> Double
    private let logger: Logger
    /// Messages sent and not yet reported back, in order (the adapter reports each once).
    private var inFlight: [(message: CECMessage, send: TVPowerPolicy.Send)] = []
    private var unansweredSaid = false

    /// `clock`: monotonic seconds (the loop's).
    public init(link: any TVLink, settings: TVPowerPolicy.Settings, screenOn: Bool,
                clock: @escaping () -> Double, logger: Logger) {
        self.link = link
        policy = TVPowerPolicy(settings: settings, screenOn: screenOn)
        self.clock = clock
        self.logger = logger
    }

    /// The screen was switched on or off.
    public func screenChanged(on: Bool) {
        perform(policy.screenChanged(on: on, now: clock()))
    }

    /// What the adapter reported.
    public func handle(_ incoming: CECIncoming) {
        switch incoming {
        case .addressesChanged(let physical, let logical):
            guard physical != 0xffff else {
                logger.info("CEC: no physical address (no HDMI sink): waiting for the TV")
                policy.addressesLost()
                return
            }
            guard let logical else {
                logger.info("CEC: physical address \(CECMessage.addressText(physical)), claiming a logical address")
                policy.addressesLost()
                return
            }
            logger.info("CEC: physical address \(CECMessage.addressText(physical)), logical address \(logical)")
            perform(policy.addressesReady(now: clock()))
        case .received(let message):
            lastMessage = "received \(message)"
            logger.info("CEC: received \(message)")
            guard let heard = Self.heard(message, ours: link.logicalAddress) else { return }
            perform(policy.heard(heard, ours: link.physicalAddress, now: clock()))
            if case .standby = heard, policy.ownerSwitchedOff, policy.screenOn {
                logger.info("CEC: the TV was switched off by its owner: it stays off until the screen's next wake")
            }
        case .transmitted(let message, let acknowledged, let reply):
            let index = inFlight.firstIndex { $0.message == message }
            let send = index.map { inFlight.remove(at: $0).send }
            if let send { policy.delivered(send, acknowledged: acknowledged) }
            lastMessage = "sent \(message) (\(acknowledged ? "acknowledged" : "not acknowledged"))"
            if acknowledged {
                logger.info("CEC: \(message) acknowledged")
            } else if message.destination != CECMessage.broadcast, !unansweredSaid {
                unansweredSaid = true
                logger.warning("CEC: the TV did not acknowledge \(message): is it connected, with CEC on (Anynet+, Bravia Sync, SimpLink...)? The frame works on")
            }
            if let reply, let status = reply.powerStatus {
                lastMessage = "received \(reply)"
                logger.info("CEC: the TV reports \(status)")
                perform(policy.heard(.powerStatus(Self.state(status)), ours: link.physicalAddress, now: clock()))
            }
        case .lostMessages:
            logger.debug("CEC: the kernel dropped messages")
        }
    }

    /// A message as the policy hears it; nil for what it does not care about.
    static func heard(_ message: CECMessage, ours logical: UInt8?) -> TVPowerPolicy.Heard? {
        let toUs = message.destination == CECMessage.broadcast || message.destination == logical
        guard let opcode = message.opcode else { return nil }
        switch opcode {
        case CECMessage.Opcode.standby where toUs: return .standby
        case CECMessage.Opcode.reportPowerStatus where message.initiator == CECMessage.tv:
            return message.powerStatus.map { .powerStatus(state($0)) }
        case CECMessage.Opcode.activeSource: return message.addressOperand.map { .activeSource($0) }
        case CECMessage.Opcode.setStreamPath: return message.addressOperand.map { .setStreamPath($0) }
        case CECMessage.Opcode.requestActiveSource: return .requestActiveSource
        case CECMessage.Opcode.givePowerStatus where toUs && message.destination != CECMessage.broadcast:
            return .givePowerStatus(from: message.initiator)
        default: return nil
        }
    }

    static func state(_ status: CECMessage.PowerStatus) -> TVPowerPolicy.TVPowerState {
        switch status {
        case .on: .on
        case .standby: .standby
        case .turningOn: .turningOn
        case .turningOff: .turningOff
        }
    }

    private func perform(_ sends: [TVPowerPolicy.Send]) {
        guard !sends.isEmpty, let from = link.logicalAddress else { return }
        for send in sends {
            let (message, reply) = Self.message(send, from: from, physicalAddress: link.physicalAddress)
            do {
                try link.send(message, reply: reply)
                inFlight.append((message, send))
                logger.info("CEC: sent \(message)")
            } catch {
                logger.warning("CEC: cannot send \(message): \(error)")
            }
        }
    }

    static func message(_ send: TVPowerPolicy.Send, from: UInt8, physicalAddress: UInt16) -> (CECMessage, reply: UInt8?) {
        switch send {
        case .standby: (CECMessage.standby(from: from), nil)
        case .viewOn(.image): (CECMessage.imageViewOn(from: from), nil)
        case .viewOn(.text): (CECMessage.textViewOn(from: from), nil)
        case .activeSource: (CECMessage.activeSource(from: from, physicalAddress: physicalAddress), nil)
        case .askPowerStatus: (CECMessage.givePowerStatus(from: from), CECMessage.Opcode.reportPowerStatus)
        case .reportPowerStatus(let to, let on): (CECMessage.reportPowerStatus(from: from, to: to, on ? .on : .standby), nil)
        }
    }
}
