import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

extension FileSystemCalls {
    /// Whether some process has the file at `path` open for writing (a copy or download still
    /// under way), asked the kernel's way: a read lease (F_SETLEASE) is refused with EAGAIN while
    /// the file is open for writing anywhere. Nil when the kernel cannot say: this process does
    /// not own the file (and lacks CAP_LEASE), the file system has no leases (NFS, FUSE), leases
    /// are off (fs.leases-enable), or the file cannot be opened. Opened non-blocking, so a lease
    /// someone else holds never makes this wait.
    public static func isOpenForWriting(_ path: FilePath) -> Bool? {
        let fd = path.withPlatformString { open($0, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        if fcntl(fd, setLease, Int32(F_RDLCK)) == 0 {
            _ = fcntl(fd, setLease, Int32(F_UNLCK))
            return false
        }
        return SystemError.lastErrno == .resourceTemporarilyUnavailable ? true : nil
    }

    /// F_SETLEASE (F_LINUX_SPECIFIC_BASE + 0), which glibc names only under _GNU_SOURCE.
    private static let setLease: Int32 = 1024
}
