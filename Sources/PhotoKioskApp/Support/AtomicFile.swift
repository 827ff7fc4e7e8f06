#if canImport(Glibc)
import Glibc
#endif

/// An error writing or reading a small state file, with the path and the system's reason.
public struct FileError: Error, CustomStringConvertible {
    public let path: String
    public let operation: String
    public let errno: Int32

    public var description: String {
        "\(operation) \(path): \(String(cString: strerror(errno)))"
    }
}

/// Writes small files so that a crash or power loss at any moment leaves either the old content
/// or the new content, never a mix: write a temporary file in the same directory, fsync it,
/// rename it over the target, then fsync the directory so the rename itself is durable.
public enum AtomicFile {
    /// Steps of a write, for tests that simulate a crash between them.
    public enum Step: Sendable { case writeTemporary, syncTemporary, rename, syncDirectory }

    public static func write(_ bytes: [UInt8], to path: String, failingAt failure: Step? = nil) throws {
        let directory = ResourceLocator.parentDirectory(of: path)
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: temporary, operation: "create", errno: errno) }
        var closed = false
        defer { if !closed { close(fd) } }

        if failure == .writeTemporary { unlink(temporary); throw FileError(path: temporary, operation: "write", errno: EIO) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                let e = errno
                unlink(temporary)
                throw FileError(path: temporary, operation: "write", errno: e)
            }
            written += n
        }
        if failure == .syncTemporary || fsync(fd) != 0 {
            let e = failure == .syncTemporary ? EIO : errno
            unlink(temporary)
            throw FileError(path: temporary, operation: "fsync", errno: e)
        }
        close(fd)
        closed = true
        if failure == .rename || rename(temporary, path) != 0 {
            let e = failure == .rename ? EIO : errno
            unlink(temporary)
            throw FileError(path: path, operation: "rename", errno: e)
        }
        if failure == .syncDirectory { throw FileError(path: directory, operation: "fsync", errno: EIO) }
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            _ = fsync(dirFD)
            close(dirFD)
        }
    }

    public static func write(_ text: String, to path: String) throws {
        try write(Array(text.utf8), to: path)
    }

    /// The whole file, or nil when it does not exist.
    public static func read(_ path: String, limit: Int = 64 << 20) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw FileError(path: path, operation: "open", errno: errno)
        }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: "read", errno: errno)
            }
            if n == 0 { break }
            result.append(contentsOf: chunk[0..<n])
            if result.count > limit { throw FileError(path: path, operation: "read (file too large)", errno: EFBIG) }
        }
        return result
    }

    /// Creates `path` and its missing parents (mode 0755).
    public static func makeDirectories(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw FileError(path: current, operation: "mkdir", errno: errno)
            }
        }
    }
}
