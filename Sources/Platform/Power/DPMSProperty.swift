import CDRM
import Glibc

/// The connector property "DPMS" (legacy, but honoured by atomic drivers such as vc4 too, which
/// map it to the CRTC's ACTIVE state): setting it to OFF blanks the panel and stops scanout
/// while keeping the mode and the buffers, so switching on again shows the last frame at once.
enum DPMSProperty {
    static let on: UInt64 = 0   // DRM_MODE_DPMS_ON
    static let off: UInt64 = 3  // DRM_MODE_DPMS_OFF

    /// The property's id on `connectorID`, nil when the connector has none.
    static func propertyID(fd: Int32, connectorID: UInt32) -> UInt32? {
        guard let props = drmModeObjectGetProperties(fd, connectorID, UInt32(DRM_MODE_OBJECT_CONNECTOR)) else { return nil }
        defer { drmModeFreeObjectProperties(props) }
        for i in 0..<Int(props.pointee.count_props) {
            guard let prop = drmModeGetProperty(fd, props.pointee.props[i]) else { continue }
            defer { drmModeFreeProperty(prop) }
            let name = withUnsafeBytes(of: prop.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "DPMS" { return prop.pointee.prop_id }
        }
        return nil
    }

    static func set(_ on: Bool, fd: Int32, connectorID: UInt32, connectorName: String) throws(PlatformError) {
        guard let id = propertyID(fd: fd, connectorID: connectorID) else {
            throw .unsupported("\(connectorName) has no DPMS property: use blank = \"backlight\"")
        }
        if let error = KMSError(result: drmModeConnectorSetProperty(fd, connectorID, id, on ? Self.on : Self.off)) {
            throw .failed("DPMS \(on ? "on" : "off") on \(connectorName)", errno: error.errno)
        }
    }
}
