#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and writes with POSIX calls and errors a person can read.
public enum FileReader {
    /// The bytes of the regular file at `path`, refusing files larger than `maxBytes`.
    ///
    /// `prefix`: read at most this many bytes (header probes); the size limit still applies to
    /// the file. FIFOs and devices are refused rather than blocking.
    public static func read(path: String, maxBytes: Int = 256 << 20, prefix: Int? = nil) throws(ImagingError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO would otherwise wait for a writer. Regular files ignore it.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        return try read(opened: fd, path: path, maxBytes: maxBytes, prefix: prefix)
    }

    /// The same for a path kept as raw bytes: file names need not be UTF-8 (a String would
    /// replace the invalid bytes and name another file).
    public static func read(path: RawPath, maxBytes: Int = 256 << 20, prefix: Int? = nil) throws(ImagingError) -> [UInt8] {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        return try read(opened: fd, path: path.description, maxBytes: maxBytes, prefix: prefix)
    }

    /// Opens the regular file at `path` for reading (O_NONBLOCK: a FIFO is refused, not waited
    /// on) and checks it against `maxBytes`; returns the descriptor, which the caller closes.
    static func openChecked(path: RawPath, maxBytes: Int) throws(ImagingError) -> Int32 {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        _ = try checked(opened: fd, path: path.description, maxBytes: maxBytes)
        return fd
    }

    /// The size of the regular file open at `fd` (just opened, or -1 with errno set), within
    /// `maxBytes`; closes `fd` when it throws.
    private static func checked(opened fd: Int32, path: String, maxBytes: Int) throws(ImagingError) -> Int {
        guard fd >= 0 else { throw error(errno, path) }
        var info = stat()
        var failure: ImagingError?
        if fstat(fd, &info) != 0 {
            failure = error(errno, path)
        } else if info.st_mode & S_IFMT == S_IFDIR {
            failure = error(EISDIR, path)
        } else if info.st_mode & S_IFMT != S_IFREG {
            failure = ImagingError(.io, "not a regular file", fileName: lastComponent(of: path))
        } else if Int(info.st_size) > maxBytes {
            failure = ImagingError(.tooLarge, "file is \(info.st_size) bytes, more than the limit of \(maxBytes) bytes",
                                   fileName: lastComponent(of: path))
        }
        if let failure {
            close(fd)
            throw failure
        }
        return Int(info.st_size)
    }

    /// Reads from `fd` (just opened, or -1 with errno set) and closes it.
    private static func read(opened fd: Int32, path: String, maxBytes: Int, prefix: Int?) throws(ImagingError) -> [UInt8] {
        let size = try checked(opened: fd, path: path, maxBytes: maxBytes)
        defer { close(fd) }
        let wanted = min(size, prefix ?? size)
        var bytes = [UInt8](repeating: 0, count: wanted)
        var done = 0
        var failure: Int32 = 0
        bytes.withUnsafeMutableBytes { buffer in
            while done < wanted {
                let n = systemRead(fd, buffer.baseAddress! + done, wanted - done)
                if n > 0 {
                    done += n
                } else if n == 0 {
                    break  // the file shrank while we read it
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
        }
        if failure != 0 { throw error(failure, path) }
        if done < wanted { bytes.removeSubrange(done...) }
        return bytes
    }

    /// Writes `bytes` to `path` through a temporary file renamed into place, so readers never see
    /// half a file.
    public static func write(_ bytes: [UInt8], to path: String) throws(ImagingError) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw error(errno, path) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = systemWrite(fd, buffer.baseAddress! + done, buffer.count - done)
                if n >= 0 {
                    done += n
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
        }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw error(failure, path)
        }
    }

    static func error(_ code: Int32, _ path: String) -> ImagingError {
        let reason: String
        switch code {
        case ENOENT: reason = "no such file"
        case EACCES, EPERM: reason = "permission denied"
        case EISDIR: reason = "is a directory, not an image file"
        case ENOTDIR: reason = "a folder in the path is not a directory"
        case ENAMETOOLONG: reason = "path too long"
        case EMFILE, ENFILE: reason = "too many open files"
        case ENOSPC: reason = "no space left on the device"
        case EIO: reason = "input/output error (failing storage?)"
        default: reason = String(cString: strerror(code))
        }
        return ImagingError(.io, reason, fileName: lastComponent(of: path))
    }

    /// "IMG_0001.jpg" for "/photos/2024/IMG_0001.jpg".
    static func lastComponent(of path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        return parts.last.map(String.init) ?? path
    }
}

// File-scope names so the static `read`/`write` above do not shadow the system calls.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
