import CDRM
import SystemAccess
import Glibc

/// An open /dev/dri/card* node with KMS: probing connectors, encoders and CRTCs, and (as the
/// display's `KMSDevice`) the libdrm calls that drive a screen (DRMCard+KMS.swift).
final class DRMCard {
    let path: String
    private(set) var fd: Int32
    let driver: String
    /// Direct open(2), or the libseat seat that granted the node.
    let opener: DeviceOpener
    /// Page-flip completions read from `fd`; its address is each flip's user_data.
    let dispatcher = DRMEventDispatcher()
    /// The overlay planes, read once (DRMCard+Planes), and their property ids by name.
    var overlayPlaneList: [OverlayPlaneInfo]?
    var planePropertyIDs: [UInt32: [String: UInt32]] = [:]
    /// Each CRTC's primary plane, found once atomic mode setting is on.
    var primaryPlaneIDs: [UInt32: UInt32] = [:]
    /// Whether atomic mode setting is on for this node (turned on by the first plane commit).
    var isAtomic = false

    /// Opens `path` (through the seat when there is one) and checks that it can scan out dumb
    /// buffers.
    init(path: String, opener: DeviceOpener? = nil) throws(PlatformError) {
        let opener = opener ?? DeviceOpener.forDevice(path)
        fd = try opener.open(path, flags: O_RDWR | O_NONBLOCK)
        self.path = path
        self.opener = opener
        var hasDumb: UInt64 = 0
        guard drmGetCap(fd, UInt64(DRM_CAP_DUMB_BUFFER), &hasDumb) == 0, hasDumb != 0,
              let res = drmModeGetResources(fd) else {
            opener.close(fd)
            throw .noUsableOutput("\(path) has no KMS (dumb buffers / mode resources)")
        }
        drmModeFreeResources(res)
        if let version = drmGetVersion(fd) {
            driver = version.pointee.name.map { String(cString: $0) } ?? "?"
            drmFreeVersion(version)
        } else {
            driver = "?"
        }
    }

    deinit { close() }

    /// Closes the node, which also gives up DRM master so the console or another program can
    /// take the screen. Safe to call more than once.
    func close() {
        guard fd >= 0 else { return }
        opener.close(fd)
        fd = -1
    }

    /// /dev/dri/card* nodes, in numeric order.
    static func nodes(in directory: String = "/dev/dri") -> [String] {
        let names = (entryNames(inDirectory: directory) ?? []).map { String(decoding: $0, as: UTF8.self) }
            .filter { $0.hasPrefix("card") }
        return names.sorted { (Int($0.dropFirst(4)) ?? 0) < (Int($1.dropFirst(4)) ?? 0) }
            .map { "\(directory)/\($0)" }
    }

    /// The first card in `directory` with KMS, or the one at `path` when given. Errors name the
    /// real cause: no node at all, or the group needed to open one.
    static func open(path: String?, directory: String = "/dev/dri") throws(PlatformError) -> DRMCard {
        if let path {
            guard access(path, F_OK) == 0 else { throw .noDRMDevice(path) }
            return try DRMCard(path: path)
        }
        let candidates = nodes(in: directory)
        guard !candidates.isEmpty else { throw .noDRMDevice("\(directory)/card*") }
        var firstError: PlatformError?
        for candidate in candidates {
            do {
                return try DRMCard(path: candidate)
            } catch {
                if firstError == nil || error.isPermission { firstError = error }
            }
        }
        throw firstError ?? .noDRMDevice("\(directory)/card*")
    }

    /// Reads connectors (with their modes), encoders and CRTCs.
    func probe() -> KMSResources {
        guard let res = drmModeGetResources(fd) else { return KMSResources(connectors: [], encoders: [], crtcIDs: []) }
        defer { drmModeFreeResources(res) }
        let r = res.pointee
        let crtcs = (0..<Int(r.count_crtcs)).map { r.crtcs[$0] }
        var encoders: [EncoderInfo] = []
        for i in 0..<Int(r.count_encoders) {
            guard let e = drmModeGetEncoder(fd, r.encoders[i]) else { continue }
            encoders.append(EncoderInfo(id: e.pointee.encoder_id, crtcID: e.pointee.crtc_id,
                                        possibleCRTCs: e.pointee.possible_crtcs))
            drmModeFreeEncoder(e)
        }
        var connectors: [ConnectorInfo] = []
        for i in 0..<Int(r.count_connectors) {
            guard let c = drmModeGetConnector(fd, r.connectors[i]) else { continue }
            let cp = c.pointee
            let modes = (0..<Int(cp.count_modes)).map { ModeInfo(cp.modes[$0]) }
            let typeName = drmModeGetConnectorTypeName(cp.connector_type).map { String(cString: $0) } ?? "Unknown"
            connectors.append(ConnectorInfo(
                id: cp.connector_id, name: "\(typeName)-\(cp.connector_type_id)",
                isConnected: cp.connection == DRM_MODE_CONNECTED, modes: modes,
                currentEncoderID: cp.encoder_id,
                encoderIDs: (0..<Int(cp.count_encoders)).map { cp.encoders[$0] },
                millimetres: (Int(cp.mmWidth), Int(cp.mmHeight))))
            drmModeFreeConnector(c)
        }
        return KMSResources(connectors: connectors, encoders: encoders, crtcIDs: crtcs)
    }
}

extension ModeInfo {
    init(_ raw: drmModeModeInfo) {
        let name = withUnsafeBytes(of: raw.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        self.init(name: name, width: Int(raw.hdisplay), height: Int(raw.vdisplay), refresh: Int(raw.vrefresh),
                  isPreferred: raw.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0, raw: raw)
    }
}

extension PlatformError {
    var isPermission: Bool {
        if case .permissionDenied = self { return true }
        return false
    }
}
