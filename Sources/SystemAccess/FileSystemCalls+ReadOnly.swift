import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

extension FileSystemCalls {
    /// Whether `path` (or, when it does not exist yet, the nearest folder above it) is on a
    /// file system mounted read-only: a read-only root (Raspberry Pi OS's overlay option with the
    /// root left read-only, a kiosk image). statvfs merges the mount's and the file system's
    /// flags, so a read-write bind mount (systemd's CacheDirectory=) over a read-only root counts
    /// as read-only too. nil when nothing on the way can be asked.
    public static func isOnReadOnlyFileSystem(_ path: FilePath) -> Bool? {
        var current = path
        while true {
            var info = statvfs()
            if current.withPlatformString({ statvfs($0, &info) }) == 0 {
                return info.f_flag & UInt(ST_RDONLY) != 0
            }
            guard Glibc.errno == ENOENT, !current.isEmpty, current != "/" else { return nil }
            current.removeLastComponent()
            if current.isEmpty { return nil }
        }
    }
}
