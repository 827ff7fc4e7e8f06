import Glibc
import Graphics

/// The kernel mode-setting calls `DRMDisplay` makes, and nothing more: libdrm on a card node
/// (`DRMCard`), or a recording stand-in in tests, so the display's present state machine (flip
/// pending, EBUSY, the DirtyFB fallback, master lost and regained, power) runs without a GPU.
protocol KMSDevice: AnyObject {
    /// The card node ("/dev/dri/card1") and its driver ("vc4"), for messages.
    var path: String { get }
    var driver: String { get }
    /// Readable when events (page-flip completions) wait for `readEvents`.
    var eventDescriptor: Int32 { get }
    /// The seat the card came from, whose pause and resume say when DRM master goes and comes
    /// back; nil when opened directly (then master is retried on a timer).
    var seat: LibseatSession? { get }
    /// Called by `readEvents` for every completed page flip.
    var onPageFlip: (() -> Void)? { get set }

    /// Connectors (with their modes), encoders and CRTCs.
    func probe() -> KMSResources
    /// A scanout buffer of `width`×`height` XRGB8888 pixels with a framebuffer id (dumb buffer
    /// plus AddFB), mapped for the CPU to copy into.
    func makeScanoutBuffer(width: Int, height: Int) throws(PlatformError) -> any ScanoutBuffer
    /// What `crtcID` scans out now (to give the console its screen back at the end).
    func currentCRTC(_ crtcID: UInt32) -> SavedCRTC?
    /// Puts back what `currentCRTC` read, for the connector the kiosk drove.
    func restoreCRTC(_ saved: SavedCRTC, connectorID: UInt32) throws(KMSError)
    /// A modeset: `framebufferID` on `crtcID`, driving `connectorID` in `mode`.
    func setCRTC(_ crtcID: UInt32, framebufferID: UInt32, connectorID: UInt32, mode: ModeInfo) throws(KMSError)
    /// Switches `crtcID` off (its screen is gone).
    func disableCRTC(_ crtcID: UInt32) throws(KMSError)
    /// Queues `framebufferID` for the next vblank; its completion comes through `readEvents`.
    func pageFlip(crtcID: UInt32, framebufferID: UInt32) throws(KMSError)
    /// Tells the driver which parts of a front buffer the CPU changed (device pixels).
    func dirtyFramebuffer(_ framebufferID: UInt32, clips: [PixelRect]) throws(KMSError)
    /// Asks to be DRM master again (without a seat manager).
    func setMaster() throws(KMSError)
    /// DPMS on `connectorID`: off blanks the panel and keeps the mode and the buffers.
    func setPower(_ on: Bool, connectorID: UInt32, connectorName: String) throws(PlatformError)
    /// Reads the events waiting on `eventDescriptor`.
    func readEvents()
    func close()

    // Video planes (DRMDisplay+VideoPlane)

    /// The overlay planes (neither primary nor cursor): which CRTCs each can go on and which
    /// formats it takes. Read before atomic mode setting is on, when the kernel lists overlays
    /// alone, so a card without any is never switched to it.
    func overlayPlanes() -> [OverlayPlaneInfo]
    /// Puts `update` on its plane without waiting; its completion comes through `readEvents`,
    /// as a page flip's does. With `screenFramebuffer` the screen's own (primary) plane flips to
    /// it in the same commit, so a frame that changes both takes one vblank, not two. The first
    /// call turns atomic mode setting on.
    func commitPlane(_ update: PlaneUpdate, screenFramebuffer: UInt32?) throws(KMSError)
    /// Takes `planeID` off the screen and waits until it is (before the console gets it back).
    func disablePlane(_ planeID: UInt32) throws(KMSError)
}

/// An overlay plane as the kernel describes it.
struct OverlayPlaneInfo: Equatable {
    var id: UInt32
    /// A bit for each CRTC it can go on, by the CRTC's index in `KMSResources.crtcIDs`.
    var possibleCRTCs: UInt32
    /// DRM fourcc codes.
    var formats: [UInt32]
}

/// What a plane shows: `source` of framebuffer `framebufferID` at `destination` on `crtcID`,
/// the same size (no scaling). Framebuffer 0 takes the plane off `crtcID`.
struct PlaneUpdate: Equatable {
    var planeID: UInt32
    var crtcID: UInt32
    var framebufferID: UInt32
    var source: PixelRect
    var destination: PixelRect
}

/// What a probe finds.
struct KMSResources {
    var connectors: [ConnectorInfo]
    var encoders: [EncoderInfo]
    var crtcIDs: [UInt32]
}

/// A CPU-mapped buffer KMS can scan out.
protocol ScanoutBuffer: AnyObject {
    var framebufferID: UInt32 { get }
    var memory: UnsafeMutableRawPointer { get }
    var stride: Int { get }
}

/// A CRTC's setup before the kiosk took it, restored by `close`.
struct SavedCRTC {
    var crtcID: UInt32
    var framebufferID: UInt32
    var x: UInt32
    var y: UInt32
    var mode: ModeInfo
    /// False when the CRTC was off (no mode or no buffer): nothing to restore.
    var showsSomething: Bool
}

/// A failed KMS call, decoded once: libdrm's ioctl wrappers return -errno, others -1 with errno.
struct KMSError: Error, Equatable, CustomStringConvertible {
    let errno: Int32

    init(errno: Int32) { self.errno = errno }

    /// The error of a libdrm result `r`, or nil when it succeeded (0).
    init?(result r: Int32) {
        guard r != 0 else { return nil }
        errno = r < -1 ? -r : Glibc.errno
    }

    /// Another program (or the VT) holds DRM master.
    var isNotMaster: Bool { errno == EACCES || errno == EPERM }
    /// A flip is still queued on the CRTC.
    var isBusy: Bool { errno == EBUSY }

    var description: String { String(cString: strerror(errno)) }
}
