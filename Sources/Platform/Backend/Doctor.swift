import CDRM
import SystemAccess
import Glibc

/// A plain-text report of what this machine offers PhotoKiosk: DRM cards with their connectors
/// and modes, framebuffers, input devices, and whether this user may open each (with the group
/// to join when not). For `photokiosk doctor`.
public func platformReport(drmDirectory: String = "/dev/dri", inputDirectory: String = "/dev/input") -> String {
    var lines: [String] = []
    let user = getpwuid(geteuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? "uid \(geteuid())"
    let groups = DeviceAccess.processGroups().compactMap { DeviceAccess.groupName($0) }
    lines.append("user: \(user); groups: \(Array(Set(groups)).sorted().joined(separator: ", "))")

    lines.append("DRM devices (\(drmDirectory)):")
    let cards = DRMCard.nodes(in: drmDirectory)
    if cards.isEmpty { lines.append("  none — " + PlatformError.noDRMDevice("\(drmDirectory)/card*").description) }
    for path in cards {
        do {
            let card = try DRMCard(path: path)
            lines.append("  \(path): driver \(card.driver)\(drmIsMaster(card.fd) != 0 ? ", DRM master available" : "")")
            let resources = card.probe()
            for c in resources.connectors {
                let modes = c.modes.prefix(6).map(\.description).joined(separator: ", ")
                lines.append("    \(c.name): \(c.isConnected ? "connected" : "disconnected")"
                             + (c.modes.isEmpty ? "" : "; modes \(modes)\(c.modes.count > 6 ? ", …" : "")"))
            }
            if let chosen = OutputChoice.connector(in: resources.connectors, named: nil),
               let mode = OutputChoice.mode(in: chosen.modes, request: nil) {
                lines.append("    would use \(chosen.name) \(mode)")
            }
            let xrgb = card.overlayPlanes().filter { $0.formats.contains(CDRM_FORMAT_XRGB8888) }
            lines.append("    video plane: " + (xrgb.isEmpty
                ? "none (a clip's frames are copied into the screen's buffer)"
                : "overlay plane\(xrgb.count == 1 ? "" : "s") \(xrgb.map { String($0.id) }.joined(separator: ", ")) (XR24): a playing clip nothing covers goes there"))
        } catch {
            lines.append("  \(path): \(error)")
        }
    }
    let renderNodes = listDirectory(drmDirectory).filter { $0.hasPrefix("renderD") }
    for node in renderNodes { lines.append("  \(drmDirectory)/\(node): \(accessSummary("\(drmDirectory)/\(node)"))") }

    lines.append("Framebuffers:")
    let fbs = listDirectory("/dev").filter { $0.hasPrefix("fb") && Int($0.dropFirst(2)) != nil }.sorted()
    if fbs.isEmpty { lines.append("  none") }
    for fb in fbs { lines.append("  /dev/\(fb): \(accessSummary("/dev/\(fb)"))") }

    lines.append("Input devices (\(inputDirectory)):")
    let inputs = InputNodes.list(directory: inputDirectory)
    if inputs.isEmpty { lines.append("  none") }
    for node in inputs {
        let props = SysfsAttribute.firstLine(of: "/sys/class/input/\(node.path.split(separator: "/").last ?? "")/device/properties")
        let direct = props.flatMap { UInt64($0, radix: 16) }.map { $0 & 0x2 != 0 } ?? false   // INPUT_PROP_DIRECT
        lines.append("  \(node.path): \(node.name)\(direct ? " (touchscreen)" : ""); \(accessSummary(node.path))")
    }
    lines.append("udev: " + (access("/run/udev/control", F_OK) == 0 ? "running" : "not running (no hotplug; libinput's udev backend may see no devices)"))
    lines.append("seat management: " + (DeviceOpener.sharedChoice
        ?? "not decided (no DRM device opened); \(SeatMode.environmentVariable)=\(SeatMode.fromEnvironment().mode.rawValue)"))
    return lines.joined(separator: "\n")
}

/// "readable/writable" or the permission problem with the group to join.
private func accessSummary(_ path: String) -> String {
    let access = DeviceAccess(path: path)
    if Glibc.access(path, R_OK | W_OK) == 0 { return "accessible (group \(access.groupName ?? "?"))" }
    if Glibc.access(path, R_OK) == 0 { return "read-only (group \(access.groupName ?? "?"))" }
    return PlatformError.permissionDenied(path: path, group: access.groupName, userInGroup: access.userInGroup).description
}

private func listDirectory(_ path: String) -> [String] {
    (entryNames(inDirectory: path) ?? []).map { String(decoding: $0, as: UTF8.self) }
}

/// One phrase for doctor's last line: the screen `options` would open, found the way
/// `openDisplay` looks (DRM card with a connected connector, then the framebuffer, then headless),
/// without taking the screen.
public func displayChoiceSummary(_ options: DisplayOptions, drmDirectory: String = "/dev/dri") -> String {
    if options.backend == .headless { return "headless screen (asked for)" }
    if options.backend != .fbdev {
        for path in DRMCard.nodes(in: drmDirectory) {
            guard let card = try? DRMCard(path: path) else { continue }
            let connectors = card.probe().connectors
            if let chosen = OutputChoice.connector(in: connectors, named: options.connector),
               let mode = OutputChoice.mode(in: chosen.modes, request: options.mode) {
                return "\(path) \(chosen.name) \(mode)"
            }
        }
    }
    if options.backend != .drm, Glibc.access(options.fbdevDevice, R_OK | W_OK) == 0 {
        return options.fbdevDevice
    }
    return options.backend == .auto ? "headless screen (no display device can be used)" : "none: no \(options.backend) device can be used"
}
