import CDRM
import Glibc
import Graphics

/// The libdrm implementation of the calls `DRMDisplay` makes.
extension DRMCard: KMSDevice {
    var eventDescriptor: Int32 { fd }
    var seat: LibseatSession? { opener.seat }

    var onPageFlip: (() -> Void)? {
        get { dispatcher.onPageFlip.map { handler in { handler(0, 0) } } }
        set { dispatcher.onPageFlip = newValue.map { handler in { _, _ in handler() } } }
    }

    func makeScanoutBuffer(width: Int, height: Int) throws(PlatformError) -> any ScanoutBuffer {
        try DumbBuffer(fd: fd, width: width, height: height)
    }

    func currentCRTC(_ crtcID: UInt32) -> SavedCRTC? {
        guard let crtc = drmModeGetCrtc(fd, crtcID) else { return nil }
        defer { drmModeFreeCrtc(crtc) }
        let c = crtc.pointee
        return SavedCRTC(crtcID: c.crtc_id, framebufferID: c.buffer_id, x: c.x, y: c.y, mode: ModeInfo(c.mode),
                         showsSomething: c.mode_valid != 0 && c.buffer_id != 0)
    }

    func restoreCRTC(_ saved: SavedCRTC, connectorID: UInt32) throws(KMSError) {
        var connector = connectorID
        var raw = saved.mode.raw
        let r = drmModeSetCrtc(fd, saved.crtcID, saved.framebufferID, saved.x, saved.y, &connector, 1, &raw)
        if let error = KMSError(result: r) { throw error }
    }

    func setCRTC(_ crtcID: UInt32, framebufferID: UInt32, connectorID: UInt32, mode: ModeInfo) throws(KMSError) {
        var connector = connectorID
        var raw = mode.raw
        if let error = KMSError(result: drmModeSetCrtc(fd, crtcID, framebufferID, 0, 0, &connector, 1, &raw)) { throw error }
    }

    func disableCRTC(_ crtcID: UInt32) throws(KMSError) {
        if let error = KMSError(result: drmModeSetCrtc(fd, crtcID, 0, 0, 0, nil, 0, nil)) { throw error }
    }

    func pageFlip(crtcID: UInt32, framebufferID: UInt32) throws(KMSError) {
        let r = drmModePageFlip(fd, crtcID, framebufferID, UInt32(DRM_MODE_PAGE_FLIP_EVENT), dispatcher.userData)
        if let error = KMSError(result: r) { throw error }
    }

    func dirtyFramebuffer(_ framebufferID: UInt32, clips: [PixelRect]) throws(KMSError) {
        var rects = clips.map {
            drm_clip_rect(x1: UInt16($0.x), y1: UInt16($0.y), x2: UInt16($0.maxX), y2: UInt16($0.maxY))
        }
        if let error = KMSError(result: drmModeDirtyFB(fd, framebufferID, &rects, UInt32(rects.count))) { throw error }
    }

    func setMaster() throws(KMSError) {
        if let error = KMSError(result: drmSetMaster(fd)) { throw error }
    }

    func setPower(_ on: Bool, connectorID: UInt32, connectorName: String) throws(PlatformError) {
        try DPMSProperty.set(on, fd: fd, connectorID: connectorID, connectorName: connectorName)
    }

    func readEvents() { dispatcher.dispatch(fd: fd) }
}

extension DumbBuffer: ScanoutBuffer {}
