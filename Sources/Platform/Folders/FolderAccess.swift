import Glibc
import SystemAccess
import SystemPackage

/// Whether a user other than the caller can list a folder: the photo folders are read by the
/// service's own user (`photokiosk`), while `doctor` may run as root or as the person setting
/// the frame up. Checked from the permission bits of the folder and every folder above it
/// (search on each, read on the folder itself) against the user's uid and groups.
public enum FolderAccess {
    public struct Account: Sendable, Equatable {
        public var name: String
        public var uid: UInt32
        public var groups: [UInt32]
        public init(name: String, uid: UInt32, groups: [UInt32]) {
            self.name = name
            self.uid = uid
            self.groups = groups
        }
    }

    /// The account `name` with its primary and supplementary groups; nil when there is no such user.
    public static func account(named name: String) -> Account? {
        guard let entry = getpwnam(name) else { return nil }
        let uid = entry.pointee.pw_uid, gid = entry.pointee.pw_gid
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, gid, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            _ = getgrouplist(name, gid, &groups, &count)
        }
        return Account(name: name, uid: uid, groups: Array(groups.prefix(Int(max(count, 0)))) + [gid])
    }

    /// The account this process runs as.
    public static func currentAccount() -> Account {
        let uid = geteuid()
        let name = getpwuid(uid).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? "uid \(uid)"
        return Account(name: name, uid: uid, groups: DeviceAccess.processGroups() + [getegid()])
    }

    /// nil when `account` can list `folder`; else the first folder on the way that stops it
    /// and what is missing ("/media/photos: no read permission for photokiosk").
    public static func problem(listing folder: String, as account: Account) -> String? {
        guard account.uid != 0 else { return nil }   // root reads everything (no capabilities dropped here)
        var path = ""
        let parts = folder.split(separator: "/")
        for (index, part) in parts.enumerated() {
            path += "/" + part
            guard let status = try? FileSystemCalls.status(FilePath(path)) else { return "\(path) does not exist" }
            let isLast = index == parts.count - 1
            let needed: UInt32 = isLast ? 0o5 : 0o1   // r-x on the folder, --x on those above
            let mode = UInt32(status.permissions.rawValue)
            let granted: UInt32
            if status.userID.rawValue == account.uid { granted = (mode >> 6) & 7 }
            else if account.groups.contains(status.groupID.rawValue) { granted = (mode >> 3) & 7 }
            else { granted = mode & 7 }
            if granted & needed != needed {
                return "\(path): no \(isLast ? "read" : "search") permission for \(account.name)"
            }
        }
        return nil
    }
}
