import Glibc
import Graphics
import Logging
import SystemPackage
import Testing
import TestSupport
@testable import Platform

/// DRMDisplay's present state machine over a recording KMS device: page flips and their
/// completions, EBUSY, the DirtyFB fallback, DRM master lost and regained, DPMS off and on,
/// a screen unplugged and plugged again.
@Suite struct DRMPresentTests {
    final class Harness {
        let kms: RecordingKMS
        let display: DRMDisplay
        let loop = SteppedLoop()
        var events: [DisplayEvent] = []

        init(width: Int = 32, height: Int = 24, pageFlip: Bool = true, rotation: Rotation = .none) throws {
            kms = RecordingKMS(width: width, height: height)
            display = try DRMDisplay(kms: kms, configuration: DRMConfiguration(rotation: rotation, pageFlip: pageFlip),
                                     logger: Logger(label: "test.drm"), watchesScreens: false)
            try display.attach(to: loop) { [unowned self] in self.events.append($0) }
        }

        func fill(_ rect: PixelRect, _ color: UInt32) {
            for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX { display.frameBuffer.setPixel(x: x, y: y, color) } }
        }

        /// Whether the buffer on screen shows the frame buffer (no rotation).
        var screenMatchesFrame: Bool {
            guard let shown = kms.shown else { return false }
            let frame = display.frameBuffer
            return (0..<frame.height).allSatisfy { y in (0..<frame.width).allSatisfy { shown.pixel(x: $0, y: y) == frame.pixel(x: $0, y: y) } }
        }
    }

    let square = PixelRect(x: 2, y: 3, width: 5, height: 4)

    @Test func aModesetShowsTheFrameAndAPresentQueuesOneFlip() throws {
        let h = try Harness()
        #expect(h.display.state == .ready && h.display.isReadyForFrame)
        #expect(h.kms.modesets == 1 && h.screenMatchesFrame)
        h.fill(square, 0xFFFF_0000)
        try h.display.present(damage: [square])
        #expect(h.display.state == .flipPending(deferred: false))
        #expect(!h.display.isReadyForFrame && h.kms.flips == 1)
        h.kms.completeFlip()
        #expect(h.events == [.frameDone])
        #expect(h.display.state == .ready && h.screenMatchesFrame)
    }

    @Test func aFrameDrawnWhileAFlipIsPendingFollowsWhenItCompletes() throws {
        let h = try Harness()
        h.fill(square, 0xFFFF_0000)
        try h.display.present(damage: [square])
        let later = PixelRect(x: 20, y: 10, width: 3, height: 3)
        h.fill(later, 0xFF00_FF00)
        try h.display.present(damage: [later])
        #expect(h.display.state == .flipPending(deferred: true))
        #expect(h.kms.flips == 1, "no second flip while one is queued")
        h.kms.completeFlip()
        #expect(h.display.state == .flipPending(deferred: false), "the waiting frame went out at once")
        #expect(h.kms.flips == 2)
        h.kms.completeFlip()
        #expect(h.events == [.frameDone, .frameDone])
        #expect(h.screenMatchesFrame)
    }

    @Test func ebusyKeepsTheDamageForTheNextPresent() throws {
        let h = try Harness()
        h.kms.pageFlipErrors = [EBUSY]
        h.fill(square, 0xFFFF_0000)
        try h.display.present(damage: [square])
        #expect(h.display.state == .flipRefused && h.display.isReadyForFrame)
        #expect(h.kms.flips == 0 && !h.screenMatchesFrame)
        try h.display.present(damage: [])
        #expect(h.kms.flips == 1)
        h.kms.completeFlip()
        #expect(h.screenMatchesFrame, "the refused frame's damage reached the screen")
    }

    @Test func aFailedFlipFallsBackToTheFrontBufferWithDirtyFB() throws {
        let h = try Harness()
        h.kms.pageFlipErrors = [EINVAL]
        h.fill(square, 0xFFFF_0000)
        try h.display.present(damage: [square])
        #expect(h.display.presentMode == .frontBufferWithDirtyFB)
        #expect(h.display.name.hasSuffix("(front buffer + DirtyFB)"))
        // The refused back buffer's damage (all of it, new buffers hold garbage) is every buffer's again.
        #expect(h.kms.dirtyClips == [[h.display.frameBuffer.bounds]])
        #expect(h.screenMatchesFrame, "drawn into the visible buffer")
        #expect(h.events.isEmpty, "frameDone comes from the loop, not from inside present")
        h.loop.advance(to: 0)
        #expect(h.events == [.frameDone])
        let next = PixelRect(x: 10, y: 1, width: 2, height: 2)
        h.fill(next, 0xFF00_00FF)
        try h.display.present(damage: [next])
        #expect(h.kms.flips == 0 && h.kms.dirtyClips.last == [next] && h.screenMatchesFrame)
    }

    @Test func withoutPageFlipConfiguredEveryFrameGoesToTheFrontBuffer() throws {
        let h = try Harness(pageFlip: false)
        h.fill(square, 0xFFFF_0000)
        try h.display.present(damage: [square])
        #expect(h.kms.flips == 0 && h.kms.dirtyClips == [[square]] && h.screenMatchesFrame)
        #expect(h.display.state == .ready)
    }

    @Test func masterLostPausesAndARetryRegainsItWithAFullRedraw() throws {
        let h = try Harness()
        h.kms.pageFlipErrors = [EACCES]
        h.fill(square, 0xFFFF_0000)
        try h.display.present(damage: [square])
        #expect(h.display.state == .notMaster(hadScreen: true) && !h.display.isReadyForFrame)
        #expect(h.events == [.suspended("DRM master lost")])
        try h.display.present(damage: [square])
        #expect(h.kms.flips == 0, "nothing is presented without master")
        // The first retry finds the screen still taken; the next one gets it.
        h.kms.setCRTCErrors = [EPERM]
        h.loop.advance(to: 1)
        #expect(h.kms.masterRequests == 1 && h.display.state == .notMaster(hadScreen: true))
        h.loop.advance(to: 2)
        #expect(h.kms.masterRequests == 2 && h.display.state == .ready)
        #expect(h.events == [.suspended("DRM master lost"), .needsFullRedraw])
        #expect(h.kms.modesets == 2 && h.screenMatchesFrame, "the modeset copied the whole frame")
        #expect(h.loop.pendingTimers == 0, "no retries once it is ours")
    }

    @Test func aScreenOwnedByAnotherProgramAtStartIsWaitedFor() throws {
        let kms = RecordingKMS(width: 32, height: 24)
        kms.setCRTCErrors = [EACCES]
        let display = try DRMDisplay(kms: kms, configuration: DRMConfiguration(), logger: Logger(label: "test.drm"),
                                     watchesScreens: false)
        #expect(display.state == .notMaster(hadScreen: false))
        let loop = SteppedLoop()
        var events: [DisplayEvent] = []
        try display.attach(to: loop) { events.append($0) }
        #expect(loop.pendingTimers == 1, "attach schedules the first retry")
        loop.advance(to: 1)
        #expect(display.state == .ready && events == [.needsFullRedraw])
    }

    @Test func poweredOffFramesWaitAndAppearWhenItIsOn() throws {
        let h = try Harness()
        try h.display.setScreenOn(false)
        #expect(!h.kms.powerOn && !h.display.isScreenOn && !h.display.isReadyForFrame)
        #expect(h.display.state == .poweredOff(flipPending: false, deferred: false))
        h.fill(square, 0xFFFF_0000)
        try h.display.present(damage: [square])
        #expect(h.kms.flips == 0 && h.display.state == .poweredOff(flipPending: false, deferred: true))
        try h.display.setScreenOn(true)
        #expect(h.kms.powerOn && h.kms.flips == 1, "what was drawn while off is flipped at once")
        h.kms.completeFlip()
        #expect(h.screenMatchesFrame && h.display.state == .ready)
    }

    @Test func aFlipQueuedBeforePowerOffStillCompletes() throws {
        let h = try Harness()
        h.fill(square, 0xFFFF_0000)
        try h.display.present(damage: [square])
        try h.display.setScreenOn(false)
        #expect(h.display.state == .poweredOff(flipPending: true, deferred: false))
        h.kms.completeFlip()
        #expect(h.display.state == .poweredOff(flipPending: false, deferred: false))
        #expect(h.events == [.frameDone] && h.screenMatchesFrame)
        try h.display.setScreenOn(true)
        #expect(h.display.state == .ready && h.kms.flips == 1)
    }

    @Test func aScreenSwitchedOffStaysDarkAfterMasterComesBack() throws {
        let h = try Harness()
        try h.display.setScreenOn(false)
        h.kms.pageFlipErrors = [EACCES]
        try h.display.setScreenOn(true)     // lit, and at once lost to a VT switch on the next flip
        h.fill(square, 0xFFFF_0000)
        try h.display.present(damage: [square])
        #expect(h.display.state == .notMaster(hadScreen: true))
        try h.display.setScreenOn(false)     // the schedule switches it off meanwhile
        h.loop.advance(to: 1)
        #expect(h.kms.modesets == 2 && !h.kms.powerOn, "blanked again after the modeset lit it")
        #expect(h.display.state == .poweredOff(flipPending: false, deferred: false))
    }

    @Test func unpluggedAndPluggedAgainRedrawsEverything() throws {
        let h = try Harness()
        h.kms.setScreen(width: 32, height: 24, connected: false)
        h.display.screensChanged()
        #expect(h.display.state == .waitingForScreen("HDMI-A-1 disconnected", hadScreen: true))
        #expect(h.kms.disabledCRTCs == [50] && !h.display.isReadyForFrame)
        try h.display.present(damage: [square])
        h.kms.setScreen(width: 40, height: 30, connected: true)
        h.display.screensChanged()
        #expect(h.display.state == .ready && h.display.size == Size(width: 40, height: 30))
        #expect(h.events == [.suspended("HDMI-A-1 disconnected"), .needsFullRedraw])
    }

    @Test func closingGivesTheConsoleItsScreenBack() throws {
        let kms = RecordingKMS(width: 32, height: 24)
        kms.consoleCRTC = SavedCRTC(crtcID: 50, framebufferID: 7, x: 0, y: 0,
                                    mode: ModeInfo(name: "32x24", width: 32, height: 24, refresh: 60, isPreferred: true),
                                    showsSomething: true)
        let display = try DRMDisplay(kms: kms, configuration: DRMConfiguration(), logger: Logger(label: "test.drm"),
                                     watchesScreens: false)
        display.close()
        display.close()
        #expect(kms.restored?.framebufferID == 7 && kms.closed)
        #expect(display.state == .closed && !display.isReadyForFrame)
    }
}
