import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// Drops the file's clean pages from the page cache (`posix_fadvise(DONTNEED)`), so the next
    /// read comes from the disk as after a boot: for measuring a cold first read.
    public func dropCachedPages() throws(Errno) {
        // posix_fadvise returns the error number instead of setting errno.
        let code = posix_fadvise(rawValue, 0, 0, POSIX_FADV_DONTNEED)
        guard code == 0 else { throw Errno(rawValue: code) }
    }
}
