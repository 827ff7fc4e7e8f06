import Glibc
import Testing
@testable import Platform

/// Issue 36, item 2: HDMI-CEC messages byte by byte (HDMI 1.4b's CEC supplement), the choice of
/// adapter for the output drawn on, and the adapter's failures. (Messages through real adapters
/// are checked in the VM against vivid's emulated ones, in the presence stage.)
@Suite struct CECTests {
    @Test func theKiosksMessagesOnTheWire() {
        #expect(CECMessage.standby(from: 4).bytes == [0x40, 0x36])
        #expect(CECMessage.imageViewOn(from: 4).bytes == [0x40, 0x04])
        #expect(CECMessage.textViewOn(from: 8).bytes == [0x80, 0x0d])
        #expect(CECMessage.activeSource(from: 4, physicalAddress: 0x1200).bytes == [0x4f, 0x82, 0x12, 0x00])
        #expect(CECMessage.givePowerStatus(from: 4).bytes == [0x40, 0x8f])
        #expect(CECMessage.reportPowerStatus(from: 4, to: 0, .standby).bytes == [0x40, 0x90, 0x01])
    }

    @Test func receivedBytesAreRead() throws {
        let report = try #require(CECMessage(bytes: [0x04, 0x90, 0x02]))
        #expect(report.initiator == 0 && report.destination == 4)
        #expect(report.powerStatus == .turningOn)
        #expect(report.description == "0->4 Report Power Status turning on")
        let active = try #require(CECMessage(bytes: [0x3f, 0x82, 0x21, 0x00]))
        #expect(active.addressOperand == 0x2100)
        #expect(active.description == "3->all Active Source 2.1.0.0")
        #expect(CECMessage(bytes: [0x40])?.description == "4->0 poll")
        #expect(CECMessage(bytes: []) == nil)
        #expect(CECMessage(bytes: [UInt8](repeating: 0, count: 17)) == nil, "longer than CEC allows")
        #expect(CECMessage(bytes: [0x40, 0x90])?.powerStatus == nil, "no operand")
        #expect(CECMessage(bytes: [0x40, 0x90, 9])?.powerStatus == nil, "no such status")
        #expect(CECMessage.addressText(0xffff) == "f.f.f.f")
    }

    typealias Link = CECAdapterChoice.DRMConnectorLink

    @Test func theAdapterOfTheOutputDrawnOnIsChosen() {
        let pi: [CECAdapterChoice.Candidate] = [
            .init(path: "/dev/cec0", drmConnector: Link(card: 1, connectorID: 32)),
            .init(path: "/dev/cec1", drmConnector: Link(card: 1, connectorID: 41)),
        ]
        #expect(CECAdapterChoice.choose(configured: nil, candidates: pi, output: Link(card: 1, connectorID: 41))
                == .chosen("/dev/cec1", why: "the adapter of the output drawn on (card 1, connector 41)"))
        #expect(CECAdapterChoice.choose(configured: "/dev/cec0", candidates: pi, output: Link(card: 1, connectorID: 41))
                == .chosen("/dev/cec0", why: "configured"), "the config wins")
        guard case .none(let reason) = CECAdapterChoice.choose(configured: nil, candidates: pi, output: nil) else {
            Issue.record("two adapters and no output: no guess")
            return
        }
        #expect(reason.contains("set cec.device"))
        guard case .none = CECAdapterChoice.choose(configured: nil, candidates: pi, output: Link(card: 0, connectorID: 7)) else {
            Issue.record("both belong to other outputs")
            return
        }
    }

    @Test func withoutTheKernelsLinkTheOnlyAdapterIsUsed() {
        let old: [CECAdapterChoice.Candidate] = [.init(path: "/dev/cec0", drmConnector: nil)]
        #expect(CECAdapterChoice.choose(configured: nil, candidates: old, output: Link(card: 0, connectorID: 33))
                == .chosen("/dev/cec0", why: "the only one not tied to another output"))
        #expect(CECAdapterChoice.choose(configured: nil, candidates: old, output: nil) == .chosen("/dev/cec0", why: "the only one"))
        #expect(CECAdapterChoice.choose(configured: nil, candidates: [], output: nil) == .none("no CEC adapter (/dev/cec*)"))
        #expect(CECAdapterChoice.choose(configured: "/dev/cec3", candidates: old, output: nil)
                == .none("/dev/cec3 does not exist (adapters: /dev/cec0)"))
    }

    @Test func aMissingAdapterOrADeviceThatIsNoCECAdapterIsOneClearError() {
        #expect(throws: PlatformError.self) { try CECAdapter(path: "/dev/cec-not-there") }
        do {
            _ = try CECAdapter(path: "/dev/null")
            Issue.record("/dev/null is no CEC adapter")
        } catch {
            #expect(error.description.contains("CEC_ADAP_G_CAPS"))
            #expect(error.description.contains("/dev/null"))
        }
    }
}
