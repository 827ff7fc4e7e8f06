import Glibc
import SystemAccess
import SystemPackage

/// Everything Platform can fail with, worded for the person at the kiosk: what is missing and
/// what to do about it.
public enum PlatformError: Error, Equatable, CustomStringConvertible {
    /// A system call failed: which, on what, and the errno that says why.
    case system(SystemError)
    /// No DRM card node where we looked ("/dev/dri/card*" or an explicit path).
    case noDRMDevice(String)
    /// A device exists but we may not open it; `group` is the group that owns it.
    case permissionDenied(path: String, group: String?, userInGroup: Bool)
    /// A DRM device opened but has no connector we can use, or no mode matches.
    case noUsableOutput(String)
    /// The fbdev device cannot be used (missing, unsupported pixel format).
    case fbdev(String)
    /// libinput could not be set up.
    case input(String)
    /// A backend was asked for by name that this build or machine does not offer.
    case unsupported(String)

    public var description: String {
        switch self {
        case let .system(failure):
            let subject = failure.path.map { " \($0)" } ?? ""
            return "\(failure.operation)\(subject) failed: \(failure.errno)"
        case let .noDRMDevice(lookedFor):
            return "No DRM device (\(lookedFor) does not exist). Is a KMS driver loaded? "
                + "(On a Raspberry Pi: dtoverlay=vc4-kms-v3d in config.txt.)"
        case let .permissionDenied(path, group, userInGroup):
            guard let group else { return "Permission denied opening \(path)." }
            if userInGroup {
                return "Permission denied opening \(path) although you are in group '\(group)': "
                    + "another program may hold it, or log in again so the new group applies."
            }
            return "Permission denied opening \(path): add the user to group '\(group)' "
                + "(sudo usermod -aG \(group) $USER) and log in again."
        case let .noUsableOutput(why):
            return "No usable display output: \(why)"
        case let .fbdev(why):
            return "fbdev: \(why)"
        case let .input(why):
            return "Input: \(why)"
        case let .unsupported(why):
            return why
        }
    }
}

extension PlatformError {
    /// `call` failed with `errno`; `path` when it was about a file or device node.
    static func failed(_ call: String, path: String? = nil, errno: Int32) -> PlatformError {
        .system(SystemError(call, path: path.map { FilePath($0) }, errno: Errno(rawValue: errno)))
    }
}

/// Opens a device node, turning EACCES into a message that names the missing group.
func openDevice(_ path: String, flags: Int32) throws(PlatformError) -> Int32 {
    let fd = open(path, flags | O_CLOEXEC)
    guard fd >= 0 else {
        let err = errno
        if err == EACCES || err == EPERM {
            let access = DeviceAccess(path: path)
            throw .permissionDenied(path: path, group: access.groupName, userInGroup: access.userInGroup)
        }
        throw .failed("open", path: path, errno: err)
    }
    return fd
}

/// Who may open a device node: its group, and whether this process is in it.
struct DeviceAccess {
    let groupName: String?
    let groupID: gid_t?
    let userInGroup: Bool

    init(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else {
            groupName = nil; groupID = nil; userInGroup = false
            return
        }
        groupID = st.st_gid
        groupName = Self.groupName(st.st_gid)
        userInGroup = Self.processGroups().contains(st.st_gid)
    }

    static func groupName(_ gid: gid_t) -> String? {
        guard let entry = getgrgid(gid), let name = entry.pointee.gr_name else { return nil }
        return String(cString: name)
    }

    static func processGroups() -> [gid_t] {
        let count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
        let n = getgroups(count, &groups)
        return Array(groups.prefix(Int(max(n, 0)))) + [getegid()]
    }
}
