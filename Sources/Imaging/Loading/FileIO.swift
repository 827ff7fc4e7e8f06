#if canImport(Glibc)
import Glibc
#endif
import DirectoryEntries

/// Small POSIX helpers for the disk cache: whole reads and writes that retry EINTR and short
/// counts, and `mkdir -p`.
enum FileIO {
    /// Reads exactly `count` bytes; false on error or early end of file.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Bool {
        var done = 0
        while done < count {
            let n = Glibc.read(fd, buffer + done, count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Writes all of `bytes`; on failure returns the errno.
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return n < 0 ? errno : ENOSPC }
            done += n
        }
        return nil
    }

    /// Creates `path` and its missing parents (mode 0700: thumbnails show private photos).
    /// Returns the errno of the first failure.
    static func makeDirectories(_ path: RawPath) -> Int32? {
        var info = stat()
        if path.withCString({ stat($0, &info) }) == 0 {
            return (info.st_mode & S_IFMT) == S_IFDIR ? nil : ENOTDIR
        }
        let parent = path.parent
        if parent != path, parent.bytes != [UInt8(ascii: "/")], parent.bytes != [UInt8(ascii: ".")],
           let failure = makeDirectories(parent) {
            return failure
        }
        if path.withCString({ mkdir($0, 0o700) }) != 0 && errno != EEXIST { return errno }
        return nil
    }

    /// Entries of a directory (names only, without "." and ".."), or nil if it cannot be opened.
    static func directoryEntries(_ path: RawPath) -> [[UInt8]]? {
        path.withCString { entryNames(inDirectory: $0) }
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
