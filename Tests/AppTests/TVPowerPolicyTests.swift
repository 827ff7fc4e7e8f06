import Testing
@testable import PhotoKioskApp

/// Issue 36, item 2: what the TV is told over HDMI-CEC, on a clock the test walks (the policy has
/// none of its own). Standby with a blank, view-on and active source with a wake, and the owner's
/// remote respected until the frame's next wake.
@Suite struct TVPowerPolicyTests {
    let ours: UInt16 = 0x1000

    func readyPolicy(screenOn: Bool = true, settings: TVPowerPolicy.Settings = .init(), at now: Double = 0) -> TVPowerPolicy {
        var p = TVPowerPolicy(settings: settings, screenOn: screenOn)
        _ = p.addressesReady(now: now)
        return p
    }

    @Test func nothingIsSentBeforeTheAdapterHasItsAddressesThenTheScreenStateIs() {
        var p = TVPowerPolicy(settings: .init(), screenOn: true)
        #expect(p.screenChanged(on: false, now: 1) == [])
        #expect(p.addressesReady(now: 2) == [.standby, .askPowerStatus], "the blank that came first is sent now")
        #expect(p.addressesReady(now: 3) == [], "once")
        var q = TVPowerPolicy(settings: .init(), screenOn: true)
        #expect(q.addressesReady(now: 0) == [.viewOn(.image), .activeSource, .askPowerStatus])
    }

    @Test func blankSendsStandbyAndWakeSendsViewOnAndActiveSource() {
        var p = readyPolicy()
        #expect(p.screenChanged(on: false, now: 100) == [.standby])
        p.delivered(.standby, acknowledged: true)
        #expect(p.tvPower == .standby)
        #expect(p.screenChanged(on: false, now: 101) == [], "no change, nothing sent")
        #expect(p.screenChanged(on: true, now: 200) == [.viewOn(.image), .activeSource])
        #expect(p.tvPower == .turningOn)
    }

    @Test func settingsChooseWhatIsSent() {
        var text = readyPolicy(settings: .init(standbyOnBlank: true, viewOn: .text))
        _ = text.screenChanged(on: false, now: 10)
        #expect(text.screenChanged(on: true, now: 20) == [.viewOn(.text), .activeSource])
        var quiet = readyPolicy(settings: .init(standbyOnBlank: false, viewOn: nil))
        #expect(quiet.screenChanged(on: false, now: 10) == [], "standby off: a blank leaves the TV alone")
        #expect(quiet.screenChanged(on: true, now: 20) == [.activeSource], "no view-on: only the input is claimed")
    }

    @Test func theOwnersRemoteIsLeftAloneUntilTheNextWake() {
        var p = readyPolicy()
        // The owner switches the TV off while the frame shows photos: a <Standby> from the TV.
        #expect(p.heard(.standby, ours: ours, now: 50) == [])
        #expect(p.ownerSwitchedOff)
        #expect(p.tvPower == .standby)
        // Nothing the TV or the frame does meanwhile turns it on again.
        #expect(p.heard(.requestActiveSource, ours: ours, now: 60) == [])
        p.addressesLost()
        #expect(p.addressesReady(now: 70) == [.askPowerStatus], "HDMI replugged: no view-on")
        // The blank needs no standby (it is off), and the next wake is ours: the TV comes on.
        #expect(p.screenChanged(on: false, now: 80) == [])
        #expect(p.screenChanged(on: true, now: 90) == [.viewOn(.image), .activeSource])
        #expect(!p.ownerSwitchedOff)
    }

    @Test func aStandbyReportRightAfterOurWakeIsTheTVStartingNotItsOwner() {
        var p = readyPolicy()
        _ = p.screenChanged(on: false, now: 100)
        _ = p.screenChanged(on: true, now: 200)
        #expect(p.heard(.powerStatus(.standby), ours: ours, now: 200 + TVPowerPolicy.startingTime - 1) == [])
        #expect(!p.ownerSwitchedOff, "within the starting time")
        #expect(p.heard(.powerStatus(.on), ours: ours, now: 205) == [])
        #expect(p.tvPower == .on)
        // Later, a report of standby while the screen is on: the owner's remote.
        #expect(p.heard(.powerStatus(.standby), ours: ours, now: 200 + TVPowerPolicy.startingTime + 1) == [])
        #expect(p.ownerSwitchedOff)
        #expect(p.screenChanged(on: false, now: 300) == [], "already off: no standby")
    }

    @Test func anotherSourceBeingWatchedIsNotSwitchedOff() {
        var p = readyPolicy()
        #expect(p.heard(.activeSource(ours), ours: ours, now: 10) == [], "our own address changes nothing")
        #expect(!p.otherSourceActive)
        #expect(p.heard(.activeSource(0x2000), ours: ours, now: 20) == [])
        #expect(p.heard(.requestActiveSource, ours: ours, now: 25) == [], "not the active source: another answers")
        #expect(p.screenChanged(on: false, now: 30) == [], "someone watches the other input")
        #expect(p.screenChanged(on: true, now: 40) == [.viewOn(.image), .activeSource], "our wake takes the TV back")
        #expect(p.screenChanged(on: false, now: 50) == [.standby])
    }

    @Test func theTVsMenuChoosingUsIsAnswered() {
        var p = readyPolicy()
        _ = p.heard(.activeSource(0x2000), ours: ours, now: 1)
        #expect(p.heard(.setStreamPath(ours), ours: ours, now: 2) == [.activeSource])
        #expect(!p.otherSourceActive)
        #expect(p.heard(.requestActiveSource, ours: ours, now: 3) == [.activeSource])
        #expect(p.heard(.setStreamPath(0x3000), ours: ours, now: 4) == [])
        #expect(p.otherSourceActive)
    }

    @Test func ourPowerIsReportedToWhoeverAsks() {
        var p = readyPolicy()
        #expect(p.heard(.givePowerStatus(from: 0), ours: ours, now: 1) == [.reportPowerStatus(to: 0, on: true)])
        _ = p.screenChanged(on: false, now: 2)
        #expect(p.heard(.givePowerStatus(from: 0), ours: ours, now: 3) == [.reportPowerStatus(to: 0, on: false)])
    }

    @Test func anUnacknowledgedStandbyLeavesThePowerUnknownSoTheNextBlankTriesAgain() {
        var p = readyPolicy()
        _ = p.screenChanged(on: false, now: 1)
        p.delivered(.standby, acknowledged: false)
        #expect(p.tvPower == .unknown)
        _ = p.screenChanged(on: true, now: 2)
        p.delivered(.viewOn(.image), acknowledged: false)
        #expect(p.screenChanged(on: false, now: 3) == [.standby])
    }
}
