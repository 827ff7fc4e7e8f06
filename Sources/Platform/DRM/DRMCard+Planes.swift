import CDRM
import Glibc
import Graphics

/// Overlay planes through libdrm: listing them, and atomic commits of one plane at a time.
/// Atomic mode setting is turned on only for those commits; the screen's own modesets and page
/// flips stay the legacy calls they were, which the kernel keeps serving to atomic clients.
extension DRMCard {
    func overlayPlanes() -> [OverlayPlaneInfo] {
        if let overlayPlaneList { return overlayPlaneList }
        var planes: [OverlayPlaneInfo] = []
        // Without DRM_CLIENT_CAP_UNIVERSAL_PLANES (and before atomic, which implies it) the
        // kernel lists only overlay planes.
        if let resources = drmModeGetPlaneResources(fd) {
            defer { drmModeFreePlaneResources(resources) }
            for index in 0..<Int(resources.pointee.count_planes) {
                guard let plane = drmModeGetPlane(fd, resources.pointee.planes[index]) else { continue }
                let p = plane.pointee
                planes.append(OverlayPlaneInfo(id: p.plane_id, possibleCRTCs: p.possible_crtcs,
                                               formats: (0..<Int(p.count_formats)).map { p.formats[$0] }))
                drmModeFreePlane(plane)
            }
        }
        overlayPlaneList = planes
        return planes
    }

    func commitPlane(_ update: PlaneUpdate, screenFramebuffer: UInt32?) throws(KMSError) {
        try commit(update, screenFramebuffer: screenFramebuffer,
                   flags: UInt32(DRM_MODE_ATOMIC_NONBLOCK) | UInt32(DRM_MODE_PAGE_FLIP_EVENT))
    }

    func disablePlane(_ planeID: UInt32) throws(KMSError) {
        try commit(PlaneUpdate(planeID: planeID, crtcID: 0, framebufferID: 0, source: PixelRect(x: 0, y: 0, width: 0, height: 0),
                               destination: PixelRect(x: 0, y: 0, width: 0, height: 0)), screenFramebuffer: nil, flags: 0)
    }

    /// One atomic commit of the ten properties that place a plane (source in 16.16 fixed point).
    private func commit(_ update: PlaneUpdate, screenFramebuffer: UInt32?, flags: UInt32) throws(KMSError) {
        try enableAtomic()
        let ids = try propertyIDs(ofPlane: update.planeID)
        guard let request = drmModeAtomicAlloc() else { throw KMSError(errno: ENOMEM) }
        defer { drmModeAtomicFree(request) }
        if let screenFramebuffer {
            // Only the primary plane's buffer changes: its place and size stay the modeset's.
            let primary = try primaryPlane(ofCRTC: update.crtcID)
            guard let id = try propertyIDs(ofPlane: primary)["FB_ID"] else { throw KMSError(errno: EINVAL) }
            guard drmModeAtomicAddProperty(request, primary, id, UInt64(screenFramebuffer)) >= 0 else { throw KMSError(errno: ENOMEM) }
        }
        let values: [(String, UInt64)] = [
            // A plane taken off has no CRTC (update.crtcID then says whose primary plane flips).
            ("FB_ID", UInt64(update.framebufferID)), ("CRTC_ID", update.framebufferID == 0 ? 0 : UInt64(update.crtcID)),
            ("SRC_X", UInt64(update.source.x) << 16), ("SRC_Y", UInt64(update.source.y) << 16),
            ("SRC_W", UInt64(update.source.width) << 16), ("SRC_H", UInt64(update.source.height) << 16),
            // CRTC_X and CRTC_Y are signed in the kernel; the display keeps them on the screen.
            ("CRTC_X", UInt64(update.destination.x)), ("CRTC_Y", UInt64(update.destination.y)),
            ("CRTC_W", UInt64(update.destination.width)), ("CRTC_H", UInt64(update.destination.height)),
        ]
        for (name, value) in values {
            guard let id = ids[name] else { throw KMSError(errno: EINVAL) }
            guard drmModeAtomicAddProperty(request, update.planeID, id, value) >= 0 else { throw KMSError(errno: ENOMEM) }
        }
        let userData = flags & UInt32(DRM_MODE_PAGE_FLIP_EVENT) != 0 ? dispatcher.userData : nil
        if let error = KMSError(result: drmModeAtomicCommit(fd, request, flags, userData)) { throw error }
    }

    private func enableAtomic() throws(KMSError) {
        guard !isAtomic else { return }
        if let error = KMSError(result: drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1)) { throw error }
        isAtomic = true
    }

    /// The primary plane that can go on `crtcID` (atomic lists every plane, each with its type).
    private func primaryPlane(ofCRTC crtcID: UInt32) throws(KMSError) -> UInt32 {
        if let known = primaryPlaneIDs[crtcID] { return known }
        guard let resources = drmModeGetResources(fd) else { throw KMSError(errno: errno == 0 ? ENODEV : errno) }
        let crtcs = (0..<Int(resources.pointee.count_crtcs)).map { resources.pointee.crtcs[$0] }
        drmModeFreeResources(resources)
        guard let index = crtcs.firstIndex(of: crtcID), let planes = drmModeGetPlaneResources(fd) else { throw KMSError(errno: ENOENT) }
        defer { drmModeFreePlaneResources(planes) }
        for i in 0..<Int(planes.pointee.count_planes) {
            let id = planes.pointee.planes[i]
            guard let plane = drmModeGetPlane(fd, id) else { continue }
            let fits = plane.pointee.possible_crtcs & (1 << UInt32(index)) != 0
            drmModeFreePlane(plane)
            guard fits, let properties = drmModeObjectGetProperties(fd, id, UInt32(DRM_MODE_OBJECT_PLANE)) else { continue }
            defer { drmModeFreeObjectProperties(properties) }
            guard let typeID = try propertyIDs(ofPlane: id)["type"] else { continue }
            let values = (0..<Int(properties.pointee.count_props)).map { (properties.pointee.props[$0], properties.pointee.prop_values[$0]) }
            if values.contains(where: { $0.0 == typeID && $0.1 == UInt64(DRM_PLANE_TYPE_PRIMARY) }) {
                primaryPlaneIDs[crtcID] = id
                return id
            }
        }
        throw KMSError(errno: ENOENT)
    }

    /// The plane's property ids by name, read once.
    private func propertyIDs(ofPlane planeID: UInt32) throws(KMSError) -> [String: UInt32] {
        if let known = planePropertyIDs[planeID] { return known }
        guard let properties = drmModeObjectGetProperties(fd, planeID, UInt32(DRM_MODE_OBJECT_PLANE)) else {
            throw KMSError(errno: errno == 0 ? ENOENT : errno)
        }
        defer { drmModeFreeObjectProperties(properties) }
        var ids: [String: UInt32] = [:]
        for index in 0..<Int(properties.pointee.count_props) {
            guard let property = drmModeGetProperty(fd, properties.pointee.props[index]) else { continue }
            let name = withUnsafeBytes(of: property.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            ids[name] = property.pointee.prop_id
            drmModeFreeProperty(property)
        }
        planePropertyIDs[planeID] = ids
        return ids
    }
}
