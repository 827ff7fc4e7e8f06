import Glibc
import Graphics
@testable import Platform

/// A `KMSDevice` without a GPU: buffers are bitmaps, the screen shows whichever framebuffer the
/// last modeset or completed flip put there, and a test decides when a queued flip completes
/// and which calls fail. Like the kernel, it refuses a second flip while one is queued (EBUSY).
final class RecordingKMS: KMSDevice {
    final class Buffer: ScanoutBuffer {
        let bitmap: Bitmap
        let framebufferID: UInt32
        var memory: UnsafeMutableRawPointer { bitmap.pixels }
        var stride: Int { bitmap.stride }
        init(width: Int, height: Int, id: UInt32) {
            bitmap = Bitmap(width: width, height: height)
            framebufferID = id
        }
    }

    let path = "/dev/dri/card-test"
    let driver = "recording"
    let eventDescriptor: Int32 = 9_999   // never read: a test turns SteppedLoop.watched by hand
    var seat: LibseatSession? { nil }
    var onPageFlip: (() -> Void)?

    var resources: KMSResources
    private(set) var buffers: [Buffer] = []
    /// The framebuffer on screen, and one queued to replace it at the next vblank.
    private(set) var shownFramebuffer: UInt32 = 0
    private(set) var queuedFlip: UInt32?
    private(set) var flips = 0
    private(set) var modesets = 0
    private(set) var masterRequests = 0
    private(set) var dirtyClips: [[PixelRect]] = []
    private(set) var powerOn = true
    private(set) var restored: SavedCRTC?
    private(set) var disabledCRTCs: [UInt32] = []
    private(set) var closed = false
    /// Errors the next calls answer with, first to last.
    var pageFlipErrors: [Int32] = []
    var setCRTCErrors: [Int32] = []
    /// What the console showed before the kiosk.
    var consoleCRTC: SavedCRTC?
    /// Overlay planes the card offers, and what the plane commits did: like the kernel, one
    /// commit at a time on the CRTC, whether a page flip or a plane's.
    var overlays: [OverlayPlaneInfo] = []
    var planeCommitErrors: [Int32] = []
    private(set) var planeCommits: [PlaneUpdate] = []
    private(set) var queuedPlane: PlaneUpdate?
    /// What the overlay plane shows (nil: nothing).
    private(set) var planeShown: PlaneUpdate?
    private(set) var disabledPlanes: [UInt32] = []
    /// For each plane commit, the screen buffer flipped in the same commit (nil: none).
    private(set) var screenFramebuffersWithPlane: [UInt32?] = []

    init(width: Int, height: Int, connected: Bool = true) {
        resources = KMSResources(connectors: [], encoders: [EncoderInfo(id: 40, crtcID: 0, possibleCRTCs: 1)], crtcIDs: [50])
        setScreen(width: width, height: height, connected: connected)
    }

    func setScreen(width: Int, height: Int, connected: Bool) {
        let mode = ModeInfo(name: "\(width)x\(height)", width: width, height: height, refresh: 60, isPreferred: true)
        resources.connectors = [ConnectorInfo(id: 30, name: "HDMI-A-1", isConnected: connected, modes: [mode],
                                              encoderIDs: [40], millimetres: (300, 200))]
    }

    /// The buffer on screen.
    var shown: Bitmap? { buffers.first { $0.framebufferID == shownFramebuffer }?.bitmap }

    /// The queued flip reaches the screen and its completion is read (what the loop does when
    /// the card's descriptor is readable).
    func completeFlip() {
        guard queuedPlane != nil || queuedFlip != nil else { return }
        if let plane = queuedPlane {
            planeShown = plane.framebufferID == 0 ? nil : plane
            queuedPlane = nil
        }
        if let queued = queuedFlip {
            shownFramebuffer = queued
            queuedFlip = nil
        }
        unreadCompletions += 1
        readEvents()
    }

    /// The pixels a buffer holds, by framebuffer id (a plane's buffers are scanout buffers too).
    func bitmap(ofFramebuffer id: UInt32) -> Bitmap? { buffers.first { $0.framebufferID == id }?.bitmap }

    private var unreadCompletions = 0

    // MARK: KMSDevice

    func probe() -> KMSResources { resources }

    func makeScanoutBuffer(width: Int, height: Int) throws(PlatformError) -> any ScanoutBuffer {
        let buffer = Buffer(width: width, height: height, id: UInt32(100 + buffers.count))
        buffers.append(buffer)
        return buffer
    }

    func currentCRTC(_ crtcID: UInt32) -> SavedCRTC? { consoleCRTC }

    func restoreCRTC(_ saved: SavedCRTC, connectorID: UInt32) throws(KMSError) { restored = saved }

    func setCRTC(_ crtcID: UInt32, framebufferID: UInt32, connectorID: UInt32, mode: ModeInfo) throws(KMSError) {
        if !setCRTCErrors.isEmpty { throw KMSError(errno: setCRTCErrors.removeFirst()) }
        modesets += 1
        shownFramebuffer = framebufferID
        queuedFlip = nil
        powerOn = true   // a modeset lights the panel
    }

    func disableCRTC(_ crtcID: UInt32) throws(KMSError) { disabledCRTCs.append(crtcID) }

    func pageFlip(crtcID: UInt32, framebufferID: UInt32) throws(KMSError) {
        if !pageFlipErrors.isEmpty { throw KMSError(errno: pageFlipErrors.removeFirst()) }
        guard queuedFlip == nil, queuedPlane == nil else { throw KMSError(errno: EBUSY) }
        queuedFlip = framebufferID
        flips += 1
    }

    func dirtyFramebuffer(_ framebufferID: UInt32, clips: [PixelRect]) throws(KMSError) {
        dirtyClips.append(clips)
    }

    func setMaster() throws(KMSError) { masterRequests += 1 }

    func setPower(_ on: Bool, connectorID: UInt32, connectorName: String) throws(PlatformError) { powerOn = on }

    func readEvents() {
        while unreadCompletions > 0 {
            unreadCompletions -= 1
            onPageFlip?()
        }
    }

    func close() { closed = true }

    func overlayPlanes() -> [OverlayPlaneInfo] { overlays }

    func commitPlane(_ update: PlaneUpdate, screenFramebuffer: UInt32?) throws(KMSError) {
        if !planeCommitErrors.isEmpty { throw KMSError(errno: planeCommitErrors.removeFirst()) }
        // The screen's buffer flips on the primary plane of the CRTC named, which must be ours.
        guard screenFramebuffer == nil || resources.crtcIDs.contains(update.crtcID) else { throw KMSError(errno: ENOENT) }
        guard queuedFlip == nil, queuedPlane == nil else { throw KMSError(errno: EBUSY) }
        queuedPlane = update
        queuedFlip = screenFramebuffer
        if screenFramebuffer != nil { flips += 1 }
        planeCommits.append(update)
        screenFramebuffersWithPlane.append(screenFramebuffer)
    }

    func disablePlane(_ planeID: UInt32) throws(KMSError) {
        disabledPlanes.append(planeID)
        planeShown = nil
        queuedPlane = nil
    }
}
