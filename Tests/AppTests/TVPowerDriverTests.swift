import Platform
import Testing
@testable import PhotoKioskApp

/// Issue 36, item 2, in the whole app on a headless screen: the motion sensor blanks and wakes the
/// screen through the event loop, and the TV link hears every switch as the CEC messages a TV
/// would get (bytes checked); the TV's own <Standby> is respected until the frame's next wake.
@Suite struct TVPowerDriverTests {
    /// An adapter that records what is sent and reports results as the kernel does.
    final class RecordingLink: TVLink {
        var physicalAddress: UInt16 = 0x1000
        var logicalAddress: UInt8? = 4
        var sent: [CECMessage] = []
        var replies: [UInt8] = []
        func send(_ message: CECMessage, reply: UInt8?) throws(PlatformError) {
            sent.append(message)
            if let reply { replies.append(reply) }
        }
        func take() -> [String] {
            defer { sent = [] }
            return sent.map(\.description)
        }
    }

    let presence = PresenceDriverTests()

    func start(link: RecordingLink, ready: Bool = true) throws -> (KioskApp, HeadlessDisplay, PresenceDriverTests.ScriptedMotionSensor, TVPower) {
        let sensor = PresenceDriverTests.ScriptedMotionSensor()
        let (app, display) = try presence.start(sensor: sensor)
        let tv = try #require(app.attachTV(link, settings: .init(), logger: .init(label: "test")))
        if ready { tv.handle(.addressesChanged(physical: link.physicalAddress, logical: link.logicalAddress)) }
        return (app, display, sensor, tv)
    }

    @Test func blankAndWakeSwitchTheTV() throws {
        let link = RecordingLink()
        let (app, display, sensor, tv) = try start(link: link)
        #expect(link.take() == ["4->0 Image View On", "4->all Active Source 1.0.0.0", "4->0 Give Device Power Status"])
        #expect(link.replies == [CECMessage.Opcode.reportPowerStatus])
        #expect(try app.host.run(until: { !display.isScreenOn }, timeout: 10), "the empty room goes dark")
        #expect(link.sent.map(\.bytes) == [[0x40, 0x36]], "<Standby> to the TV")
        tv.handle(.transmitted(link.sent[0], acknowledged: true, reply: nil))
        #expect(tv.policy.tvPower == .standby)
        #expect(tv.lastMessage == "sent 4->0 Standby (acknowledged)")
        _ = link.take()
        sensor.set(true)
        #expect(display.isScreenOn)
        #expect(link.sent.map(\.bytes) == [[0x40, 0x04], [0x4f, 0x82, 0x10, 0x00]], "<Image View On>, <Active Source> 1.0.0.0")
    }

    @Test func theTVSwitchedOffByItsOwnerStaysOffUntilTheNextWake() throws {
        let link = RecordingLink()
        let (app, display, sensor, tv) = try start(link: link)
        sensor.set(true)
        _ = link.take()
        // The owner's remote: the TV says <Standby> to all.
        tv.handle(.received(try #require(CECMessage(bytes: [0x0f, 0x36]))))
        #expect(tv.policy.ownerSwitchedOff)
        tv.handle(.received(try #require(CECMessage(bytes: [0x0f, 0x85]))))   // <Request Active Source>
        sensor.set(false)
        #expect(try app.host.run(until: { !display.isScreenOn }, timeout: 10))
        #expect(link.take() == [], "no standby to a TV already off, nothing while it is the owner's")
        sensor.set(true)
        #expect(display.isScreenOn)
        #expect(link.take() == ["4->0 Image View On", "4->all Active Source 1.0.0.0"], "our next wake turns it on")
    }

    @Test func aBlankBeforeTheClaimIsSentOnceTheAddressesCome() throws {
        let link = RecordingLink()
        link.logicalAddress = nil
        let (app, display, _, tv) = try start(link: link, ready: false)
        #expect(try app.host.run(until: { !display.isScreenOn }, timeout: 10))
        #expect(link.take() == [], "no address yet: nothing can be sent")
        link.logicalAddress = 4
        tv.handle(.addressesChanged(physical: 0x1000, logical: 4))
        #expect(link.take() == ["4->0 Standby", "4->0 Give Device Power Status"])
        // The TV's answer to the question comes with the transmit's result.
        let ask = CECMessage.givePowerStatus(from: 4)
        tv.handle(.transmitted(ask, acknowledged: true, reply: .reportPowerStatus(from: 0, to: 4, .standby)))
        #expect(tv.policy.tvPower == .standby)
        #expect(tv.lastMessage == "received 0->4 Report Power Status standby")
    }

    @Test func aTVThatDoesNotAnswerChangesNothingForTheFrame() throws {
        let link = RecordingLink()
        let (app, display, sensor, tv) = try start(link: link)
        for message in link.sent { tv.handle(.transmitted(message, acknowledged: false, reply: nil)) }
        #expect(tv.policy.tvPower == .unknown)
        #expect(try app.host.run(until: { !display.isScreenOn }, timeout: 10), "the screen still blanks")
        sensor.set(true)
        #expect(display.isScreenOn, "and wakes")
    }
}
