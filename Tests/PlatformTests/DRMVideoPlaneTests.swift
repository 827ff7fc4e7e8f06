import Glibc
import Graphics
import Logging
import Testing
import TestSupport
@testable import Platform

/// A clip's frames on a KMS overlay plane (issue 35), over a recording KMS device: which plane
/// is chosen, what a commit puts where, one commit at a time beside the screen's page flips,
/// and the plane switched off when it goes, fails or the console gets the screen back.
@Suite struct DRMVideoPlaneTests {
    static let xr24: UInt32 = 0x3432_5258   // 'XR24'
    static let nv12: UInt32 = 0x3231_564E   // 'NV12'

    final class Harness {
        let kms: RecordingKMS
        let display: DRMDisplay
        let loop = SteppedLoop()
        var events: [DisplayEvent] = []

        init(overlays: [OverlayPlaneInfo] = [OverlayPlaneInfo(id: 60, possibleCRTCs: 1, formats: [DRMVideoPlaneTests.xr24])],
             rotation: Rotation = .none, pageFlip: Bool = true, videoPlane: Bool = true) throws {
            kms = RecordingKMS(width: 64, height: 48)
            kms.overlays = overlays
            display = try DRMDisplay(kms: kms, configuration: DRMConfiguration(rotation: rotation, pageFlip: pageFlip, videoPlane: videoPlane),
                                     logger: Logger(label: "test.drm"), watchesScreens: false)
            try display.attach(to: loop) { [unowned self] in self.events.append($0) }
        }
    }

    init() {
        if let problem = VideoFrame.loadConverter() { Issue.record("libyuv cannot be loaded (install libyuv0): \(problem)") }
    }

    /// A grey 32x16 frame shown 1:1 from (8, 20).
    func content(_ frame: VideoFrame = FlatVideoFrame.make(width: 32, height: 16)) -> VideoPlaneContent {
        VideoPlaneContent(frame: frame, source: PixelRect(x: 0, y: 0, width: 32, height: 16),
                          destination: PixelRect(x: 8, y: 20, width: 32, height: 16))
    }

    @Test func thePlaneIsTheFirstOverlayForTheCRTCThatTakesXRGB() {
        let planes = [OverlayPlaneInfo(id: 1, possibleCRTCs: 0b10, formats: [Self.xr24]),
                      OverlayPlaneInfo(id: 2, possibleCRTCs: 0b01, formats: [Self.nv12]),
                      OverlayPlaneInfo(id: 3, possibleCRTCs: 0b11, formats: [Self.nv12, Self.xr24])]
        #expect(OverlayVideoPlane.choose(from: planes, crtcIndex: 0)?.id == 3)
        #expect(OverlayVideoPlane.choose(from: planes, crtcIndex: 1)?.id == 1)
        #expect(OverlayVideoPlane.choose(from: planes, crtcIndex: 2) == nil)
        #expect(OverlayVideoPlane.choose(from: Array(planes.prefix(2)), crtcIndex: 0) == nil)
    }

    @Test func aScreenWithoutAnOverlayARotatedOneOrOneWithoutPageFlipsHasNoPlane() throws {
        #expect(try Harness(overlays: []).display.videoPlane == nil)
        #expect(try Harness(videoPlane: false).display.videoPlane == nil, "PHOTOKIOSK_DRM_NO_VIDEO_PLANE")
        #expect(try Harness(rotation: .clockwise90).display.videoPlane == nil)
        #expect(try Harness(pageFlip: false).display.videoPlane == nil)
        #expect(try Harness().display.videoPlane != nil)
    }

    @Test func onlyAFrameShownOneToOneAndWhollyOnTheScreenIsAccepted() throws {
        let h = try Harness()
        let plane = try #require(h.display.videoPlane)
        let frame = FlatVideoFrame.make(width: 32, height: 16)
        #expect(plane.accepts(content(frame)))
        let scaled = VideoPlaneContent(frame: frame, source: PixelRect(x: 0, y: 0, width: 32, height: 16),
                                       destination: PixelRect(x: 0, y: 0, width: 64, height: 32))
        let offScreen = VideoPlaneContent(frame: frame, source: PixelRect(x: 0, y: 0, width: 32, height: 16),
                                          destination: PixelRect(x: 40, y: 0, width: 32, height: 16))
        let outsideFrame = VideoPlaneContent(frame: frame, source: PixelRect(x: 8, y: 0, width: 32, height: 16),
                                             destination: PixelRect(x: 0, y: 0, width: 32, height: 16))
        #expect(!plane.accepts(scaled) && !plane.accepts(offScreen) && !plane.accepts(outsideFrame))
    }

    /// What the app does each frame: says what the plane shows, then presents.
    func frame(_ h: Harness, _ content: VideoPlaneContent?, damage: [PixelRect] = []) throws {
        h.display.show(content)
        try h.display.present(damage: damage)
    }

    @Test func aFrameIsConvertedIntoThePlanesBufferAndCommittedAtItsPlace() throws {
        let h = try Harness()
        try frame(h, content())
        let commit = try #require(h.kms.planeCommits.last)
        #expect(commit.planeID == 60 && commit.crtcID == 50)
        #expect(commit.destination == PixelRect(x: 8, y: 20, width: 32, height: 16))
        #expect(commit.source == PixelRect(x: 0, y: 0, width: 32, height: 16))
        #expect(h.display.state == .flipPending(deferred: false) && !h.display.isReadyForFrame)
        let buffer = try #require(h.kms.bitmap(ofFramebuffer: commit.framebufferID))
        #expect(buffer.width == 32 && buffer.height == 16)
        #expect(buffer.pixel(x: 5, y: 7) & 0xFF_FFFF == 0x80_8080)
        h.kms.completeFlip()
        #expect(h.events == [.frameDone] && h.display.isReadyForFrame)
        #expect(h.kms.planeShown == commit)
        // Nothing else changed: the next frame commits the plane alone.
        try frame(h, content())
        #expect(h.kms.planeCommits.count == 2 && h.kms.screenFramebuffersWithPlane.last == .some(nil))
    }

    @Test func aFrameThatChangesTheScreenTooFlipsItInTheSameCommit() throws {
        let h = try Harness()
        try frame(h, content())
        h.kms.completeFlip()
        let flips = h.kms.flips
        let bar = PixelRect(x: 8, y: 36, width: 32, height: 2)
        try frame(h, content(), damage: [bar])
        let screen = try #require(h.kms.screenFramebuffersWithPlane.last ?? nil, "the screen's buffer goes with the plane's")
        #expect(h.kms.flips == flips + 1 && h.kms.planeCommits.count == 2)
        h.kms.completeFlip()
        #expect(h.kms.shownFramebuffer == screen && h.kms.planeShown != nil && h.events.count == 2)
        #expect(h.display.isReadyForFrame)
    }

    @Test func framesAlternateBetweenTwoBuffers() throws {
        let h = try Harness()
        var shown: [UInt32] = []
        for _ in 0..<3 {
            try frame(h, content())
            shown.append(try #require(h.kms.planeCommits.last?.framebufferID))
            h.kms.completeFlip()
        }
        #expect(shown[0] != shown[1] && shown[0] == shown[2])
    }

    @Test func aPlaneChangeWhileAFlipIsPendingGoesWhenItCompletes() throws {
        let h = try Harness()
        try h.display.present(damage: [PixelRect(x: 0, y: 0, width: 4, height: 4)])
        try frame(h, content())
        #expect(h.kms.planeCommits.isEmpty, "the kernel would refuse it: a flip is queued")
        #expect(h.display.state == .flipPending(deferred: true))
        h.kms.completeFlip()
        #expect(h.kms.planeCommits.count == 1 && h.kms.queuedPlane != nil)
        h.kms.completeFlip()
        #expect(h.kms.planeShown != nil && h.display.isReadyForFrame)
    }

    @Test func nothingWhileNothingShowsCommitsNothingAndNothingAfterAFrameSwitchesThePlaneOff() throws {
        let h = try Harness()
        try frame(h, nil)
        #expect(h.kms.planeCommits.isEmpty)
        h.kms.completeFlip()   // the screen's first frame (its back buffer was new)
        try frame(h, content())
        h.kms.completeFlip()
        try frame(h, nil)
        let off = try #require(h.kms.planeCommits.last)
        #expect(off.framebufferID == 0 && off.crtcID == 50 && h.kms.planeCommits.count == 2)
        h.kms.completeFlip()
        #expect(h.kms.planeShown == nil)
        try frame(h, nil)
        #expect(h.kms.planeCommits.count == 2)
    }

    @Test func theFrameDrawnIntoTheScreenAndThePlaneGoingOffAreOneCommit() throws {
        let h = try Harness()
        try frame(h, content())
        h.kms.completeFlip()
        try frame(h, nil, damage: [PixelRect(x: 8, y: 20, width: 32, height: 16)])   // the chrome came over it
        #expect(h.display.videoPlane != nil, "the commit was refused: \(h.events)")
        let off = try #require(h.kms.planeCommits.last)
        #expect(off.framebufferID == 0 && h.kms.screenFramebuffersWithPlane.last ?? nil != nil)
        h.kms.completeFlip()
        #expect(h.kms.planeShown == nil && h.display.isReadyForFrame)
    }

    @Test func aBusyCommitIsTriedAgainWithTheNextPresent() throws {
        let h = try Harness()
        h.kms.planeCommitErrors = [EBUSY]
        try frame(h, content())
        #expect(h.display.state == .flipRefused && h.kms.planeCommits.isEmpty)
        try h.display.present(damage: [])
        #expect(h.kms.planeCommits.count == 1)
        #expect(h.kms.screenFramebuffersWithPlane.last ?? nil != nil, "the refused screen damage goes with it")
    }

    @Test func aPlaneTheDriverRefusesIsGivenUpAndTheAppRedrawsEverything() throws {
        let h = try Harness()
        h.kms.planeCommitErrors = [EINVAL]
        try frame(h, content())
        #expect(h.display.videoPlane == nil)
        h.loop.advance(to: h.loop.now)
        #expect(h.events == [.needsFullRedraw])
        #expect(h.display.isReadyForFrame)
    }

    @Test func afterDRMMasterCameBackAFrameOnThePlaneIsSwitchedOffEvenIfItSeemsOff() throws {
        let h = try Harness()
        try frame(h, content())
        h.kms.completeFlip()
        h.kms.pageFlipErrors = [EACCES]
        try h.display.present(damage: [PixelRect(x: 0, y: 0, width: 4, height: 4)])
        #expect(h.events.last == .suspended("DRM master lost"))
        h.loop.advance(to: 1)   // the retry: master again, a modeset
        #expect(h.display.isReadyForFrame)
        try frame(h, nil)
        #expect(h.kms.planeCommits.last?.framebufferID == 0, "what the plane shows after another master is not known")
    }

    @Test func closingTakesTheFrameOffThePlaneBeforeTheConsoleGetsTheScreen() throws {
        let h = try Harness()
        try frame(h, content())
        h.kms.completeFlip()
        h.display.close()
        #expect(h.kms.disabledPlanes == [60])
    }
}
