import SystemAccess
import SystemPackage

/// Small helpers for the disk caches on `SystemAccess`: whole reads and writes (EINTR and short
/// counts handled there), `mkdir -p`, listings.
enum FileIO {
    /// Reads exactly `count` bytes; false on error or early end of file.
    static func read(_ file: FileDescriptor, into buffer: UnsafeMutableRawPointer, count: Int) -> Bool {
        (try? file.readExactly(into: UnsafeMutableRawBufferPointer(start: buffer, count: count))) ?? false
    }

    /// Writes all of `bytes`; on failure returns the errno.
    static func write(_ file: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Errno? {
        do {
            try file.writeAll(from: bytes)
            return nil
        } catch {
            return error
        }
    }

    /// Creates `path` and its missing parents (mode 0700: thumbnails show private photos).
    /// Returns the errno of the first failure.
    static func makeDirectories(_ path: RawPath) -> Errno? {
        do {
            try FileSystemCalls.makeDirectories(path.filePath, permissions: .ownerReadWriteExecute)
            return nil
        } catch {
            return error.errno
        }
    }

    /// Entries of a directory (names only, without "." and ".."), or nil if it cannot be opened.
    static func directoryEntries(_ path: RawPath) -> [[UInt8]]? {
        path.withCString { entryNames(inDirectory: $0) }
    }

    /// lstat of `path`; nil when it cannot be stat'ed.
    static func linkStatus(_ path: RawPath) -> Stat? {
        try? FileSystemCalls.status(path.filePath, followingLinks: false)
    }

    static func errorText(_ code: Errno) -> String {
        code.description
    }
}
