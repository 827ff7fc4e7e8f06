import SystemAccess
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Whole-file reads and writes through `SystemAccess` (swift-system), with errors a person can read.
public enum FileReader {
    /// The bytes of the regular file at `path`, refusing files larger than `maxBytes`.
    ///
    /// `prefix`: read at most this many bytes (header probes); the size limit still applies to
    /// the file. FIFOs and devices are refused rather than blocking.
    public static func read(path: String, maxBytes: Int = 256 << 20, prefix: Int? = nil) throws(ImagingError) -> [UInt8] {
        try read(filePath: FilePath(path), maxBytes: maxBytes, prefix: prefix)
    }

    /// The same for a path kept as raw bytes: file names need not be UTF-8 (a String would
    /// replace the invalid bytes and name another file).
    public static func read(path: RawPath, maxBytes: Int = 256 << 20, prefix: Int? = nil) throws(ImagingError) -> [UInt8] {
        try read(filePath: path.filePath, maxBytes: maxBytes, prefix: prefix)
    }

    /// Opens the regular file at `path` for reading (O_NONBLOCK: a FIFO is refused, not waited
    /// on) and checks it against `maxBytes`; returns the descriptor, which the caller closes.
    static func openChecked(path: RawPath, maxBytes: Int) throws(ImagingError) -> FileDescriptor {
        try openChecked(filePath: path.filePath, maxBytes: maxBytes).file
    }

    /// The open file and its size, within `maxBytes`; closed again when it throws.
    static func openChecked(filePath path: FilePath, maxBytes: Int) throws(ImagingError) -> (file: FileDescriptor, size: Int) {
        // O_NONBLOCK: opening a FIFO would otherwise wait for a writer. Regular files ignore it.
        let file: FileDescriptor
        do {
            file = try FileDescriptor.openFile(path, .readOnly, options: [.nonBlocking])
        } catch {
            throw Self.error(error)
        }
        var failure: ImagingError?
        var size = 0
        do {
            let info = try file.stat()
            size = Int(info.size)
            if info.type == .directory {
                failure = Self.error(SystemError("open", path: path, errno: .isDirectory))
            } else if info.type != .regular {
                failure = ImagingError(.io, "not a regular file", fileName: lastComponent(of: path))
            } else if size > maxBytes {
                failure = tooLarge(size: size, maxBytes: maxBytes, path: path)
            }
        } catch {
            failure = Self.error(SystemError("fstat", path: path, errno: error))
        }
        if let failure {
            file.closeQuietly()
            throw failure
        }
        return (file, size)
    }

    /// Up to `count` bytes of `file` from `offset` (fewer at its end); nil when the read fails.
    /// For the metadata readers' `read(offset, count)` closures.
    static func bytes(of file: FileDescriptor, at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        guard let got = try? bytes.withUnsafeMutableBytes({ try file.read(fromAbsoluteOffset: Int64(offset), into: $0) }) else {
            return nil
        }
        return Array(bytes.prefix(got))
    }

    static func tooLarge(size: Int, maxBytes: Int, path: FilePath) -> ImagingError {
        ImagingError(.tooLarge, "file is \(size) bytes, more than the limit of \(maxBytes) bytes", fileName: lastComponent(of: path))
    }

    /// Throws `tooLarge` when the file at `path` is over `maxBytes` (after a prefix was read
    /// without the limit, which clips are not held to).
    static func checkSize(path: RawPath, maxBytes: Int) throws(ImagingError) {
        try openChecked(filePath: path.filePath, maxBytes: maxBytes).file.closeQuietly()
    }

    private static func read(filePath path: FilePath, maxBytes: Int, prefix: Int?) throws(ImagingError) -> [UInt8] {
        let (file, size) = try openChecked(filePath: path, maxBytes: maxBytes)
        defer { file.closeQuietly() }
        let wanted = min(size, prefix ?? size)
        var bytes = [UInt8](repeating: 0, count: wanted)
        let done: Int
        do {
            // Fewer bytes than the size said: the file shrank while we read it.
            done = try file.readFully(into: &bytes)
        } catch {
            throw Self.error(SystemError("read", path: path, errno: error))
        }
        if done < wanted { bytes.removeSubrange(done...) }
        return bytes
    }

    /// Writes `bytes` to `path` through a temporary file renamed into place, so readers never see
    /// half a file.
    public static func write(_ bytes: [UInt8], to path: String) throws(ImagingError) {
        let target = FilePath(path)
        let temporary = FilePath(path + ".tmp-\(getpid())")
        do throws(SystemError) {
            let file = try FileDescriptor.openFile(temporary, .writeOnly, options: [.create, .truncate],
                                                   permissions: [.ownerReadWrite, .groupRead, .otherRead])
            do throws(Errno) {
                try file.writeAll(bytes)
            } catch {
                file.closeQuietly()
                throw SystemError("write", path: temporary, errno: error)
            }
            do throws(Errno) {
                try file.closeChecked()
            } catch {
                throw SystemError("close", path: temporary, errno: error)
            }
            try FileSystemCalls.rename(temporary, to: target)
        } catch {
            try? FileSystemCalls.unlink(temporary)
            // Named after the file asked for: the temporary one is ours, not the person's.
            var failure = error
            failure.path = target
            throw Self.error(failure)
        }
    }

    /// The error for a failed call on `path`, worded for a person; it keeps errno and the path.
    static func error(_ failure: SystemError) -> ImagingError {
        let reason: String
        switch failure.errno {
        case .noSuchFileOrDirectory: reason = "no such file"
        case .permissionDenied, .notPermitted: reason = "permission denied"
        case .isDirectory: reason = "is a directory, not an image file"
        case .notDirectory: reason = "a folder in the path is not a directory"
        case .fileNameTooLong: reason = "path too long"
        case .tooManyOpenFiles, .tooManyOpenFilesInSystem: reason = "too many open files"
        case .noSpace: reason = "no space left on the device"
        case .ioError: reason = "input/output error (failing storage?)"
        default: reason = failure.errno.description
        }
        return ImagingError(.io, reason, fileName: failure.path.map(lastComponent(of:)), systemError: failure)
    }

    /// The same for an errno met on `path` outside a call of ours (libjpeg's stdio, a rename).
    static func error(_ code: Errno, _ path: String, operation: String = "open") -> ImagingError {
        error(SystemError(operation, path: FilePath(path), errno: code))
    }

    /// "IMG_0001.jpg" for "/photos/2024/IMG_0001.jpg".
    static func lastComponent(of path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        return parts.last.map(String.init) ?? path
    }

    static func lastComponent(of path: FilePath) -> String {
        lastComponent(of: path.description)
    }
}

extension RawPath {
    /// The same bytes as swift-system's path, for the calls in `SystemAccess`.
    public var filePath: FilePath { FilePath(bytes: bytes) }
}
