#if canImport(Glibc)
import Glibc
#endif

/// Who this process runs as, for messages that tell a person which user cannot read a folder.
public enum ProcessUser {
    /// The effective user's login name ("photokiosk" under the unit), or its number when the
    /// password database does not know it.
    public static var name: String {
        let uid = geteuid()
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return String(cString: name)
    }
}
