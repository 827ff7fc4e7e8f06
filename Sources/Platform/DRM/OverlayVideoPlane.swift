import CDRM
import Graphics

/// One screen's video plane (DRMDisplay+VideoPlane): the overlay plane chosen for its CRTC, the
/// two XRGB8888 buffers a clip's frames alternate between, which of them is on the screen and
/// what the app wants shown next. The display decides when a change may be committed.
final class OverlayVideoPlane {
    let planeID: UInt32
    let crtcID: UInt32
    /// The screen's pixels (no rotation: a plane is not used on a rotated screen).
    let screen: PixelRect
    /// The buffers, made for the first frame and again when the size changes.
    private var buffers: [any ScanoutBuffer] = []
    private var bufferSize = (width: 0, height: 0)
    /// A pair replaced by one of another size, kept until the commit that stops showing it
    /// completes: removing a framebuffer that is on the screen would switch the plane off.
    private var retired: [any ScanoutBuffer] = []
    /// The buffer on the screen; nil while the plane shows nothing.
    private(set) var shown: Int?
    /// Set after the plane may have been changed behind our back (DRM master lost): the next
    /// "nothing" is committed even though `shown` says it is off.
    private var mayBeStale = false
    /// What the app asked for last and is not committed yet: a frame, or nothing (`.some(nil)`).
    private(set) var wanted: VideoPlaneContent??

    /// The first overlay plane that can go on CRTC `crtcIndex` and takes XRGB8888, the format
    /// a frame is converted to (NV12 would spare the conversion, but no device here has a plane
    /// that takes it, so that path could not be tested).
    static func choose(from planes: [OverlayPlaneInfo], crtcIndex: Int) -> OverlayPlaneInfo? {
        guard crtcIndex >= 0, crtcIndex < 32 else { return nil }
        return planes.first { $0.possibleCRTCs & (1 << UInt32(crtcIndex)) != 0 && $0.formats.contains(CDRM_FORMAT_XRGB8888) }
    }

    init(planeID: UInt32, crtcID: UInt32, screen: PixelRect) {
        self.planeID = planeID
        self.crtcID = crtcID
        self.screen = screen
    }

    /// A frame's part can go on the plane when it is shown 1:1 and wholly on the screen.
    func accepts(_ content: VideoPlaneContent) -> Bool {
        let frame = PixelRect(x: 0, y: 0, width: content.frame.width, height: content.frame.height)
        return !content.source.isEmpty && content.source.width == content.destination.width
            && content.source.height == content.destination.height
            && frame.contains(content.source) && screen.contains(content.destination)
    }

    /// Records what to show next; false when that changes nothing (nothing, while nothing shows).
    func want(_ content: VideoPlaneContent?) -> Bool {
        if content == nil, shown == nil, !mayBeStale, wanted == nil { return false }
        wanted = .some(content)
        return true
    }

    /// The commit that shows what is wanted, the frame converted into the buffer not on the
    /// screen, and the buffer it shows once it completes (nil: off); nil when nothing is wanted.
    func takeWanted(making makeBuffer: (Int, Int) throws(PlatformError) -> any ScanoutBuffer)
        throws(PlatformError) -> (update: PlaneUpdate, showing: Int?)? {
        guard let wanted else { return nil }
        self.wanted = nil
        guard let content = wanted else {
            guard shown != nil || mayBeStale else { return nil }
            return (PlaneUpdate(planeID: planeID, crtcID: crtcID, framebufferID: 0, source: PixelRect(x: 0, y: 0, width: 0, height: 0),
                                destination: PixelRect(x: 0, y: 0, width: 0, height: 0)), nil)
        }
        let size = (width: content.source.width, height: content.source.height)
        if buffers.isEmpty || bufferSize != size {
            retired += buffers
            buffers = [try makeBuffer(size.width, size.height), try makeBuffer(size.width, size.height)]
            bufferSize = size
            shown = nil
        }
        let next = shown == 0 ? 1 : 0
        let buffer = buffers[next]
        content.frame.convert(content.source, into: buffer.memory, stride: buffer.stride)
        return (PlaneUpdate(planeID: planeID, crtcID: crtcID, framebufferID: buffer.framebufferID,
                            source: PixelRect(x: 0, y: 0, width: size.width, height: size.height),
                            destination: content.destination), next)
    }

    /// A commit from `takeWanted` completed.
    func didShow(_ index: Int?) {
        shown = index
        mayBeStale = false
        retired = []
        if index == nil {
            buffers = []   // nothing on the screen holds them: the memory goes back
            bufferSize = (0, 0)
        }
    }

    /// A commit was refused for a passing reason (EBUSY): it is tried again with the next one.
    func putBack(_ content: VideoPlaneContent??) {
        if wanted == nil { wanted = content }
    }

    /// Someone else had the screen: whether the plane still shows our frame is not known. (A
    /// plane we had switched off, or never used, nobody else turns on for us.)
    func forgetShown() {
        if shown != nil { mayBeStale = true }
    }
}
