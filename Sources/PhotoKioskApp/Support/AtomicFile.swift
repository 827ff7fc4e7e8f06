import Glibc

/// Replaces a file so that a crash or power cut at any moment leaves either the old or the new
/// contents, never a mix: write a temporary file in the same directory, fsync it, rename it over
/// the target, fsync the directory (so the rename itself is on disk). Picture frames are
/// unplugged without warning; a torn state file must not be the result.
public enum AtomicFile {
    /// The steps, in order; a test can make any of them fail through `failing`.
    public enum Step: Equatable, Sendable {
        case createTemporary, write, syncFile, rename, syncDirectory
    }

    public struct WriteError: Error, Equatable, Sendable, CustomStringConvertible {
        public var step: Step
        public var path: String
        public var errno: Int32
        public var description: String {
            "\(step) failed for \(path): \(String(cString: strerror(errno)))"
        }
    }

    public static func write(_ bytes: [UInt8], to path: String,
                             failing: (Step) -> Bool = { _ in false }) throws(WriteError) {
        let directory = directoryOf(path)
        let temporary = path + ".tmp.\(getpid())"
        func fail(_ step: Step, _ code: Int32 = Glibc.errno) -> WriteError {
            WriteError(step: step, path: path, errno: code == 0 ? EIO : code)
        }

        let fd = failing(.createTemporary) ? -1 : open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw fail(.createTemporary) }
        var closed = false
        defer { if !closed { close(fd) } }

        var written = 0
        while written < bytes.count {
            let n = failing(.write) ? -1 : bytes.withUnsafeBytes { buffer in
                Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let error = fail(.write)
                unlink(temporary)
                throw error
            }
            written += n
        }
        guard !failing(.syncFile), fsync(fd) == 0 else {
            let error = fail(.syncFile)
            unlink(temporary)
            throw error
        }
        closed = true
        close(fd)
        guard !failing(.rename), rename(temporary, path) == 0 else {
            let error = fail(.rename)
            unlink(temporary)
            throw error
        }
        // The new contents are in place; a failed directory sync only means the rename might not
        // survive a power cut yet, so it is still reported.
        let dirfd = failing(.syncDirectory) ? -1 : open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirfd >= 0 else { throw fail(.syncDirectory) }
        defer { close(dirfd) }
        guard fsync(dirfd) == 0 else { throw fail(.syncDirectory) }
    }

    /// The whole file, or nil when it does not exist or cannot be read.
    public static func read(_ path: String, limit: Int = 1 << 20) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= limit {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return nil
    }

    /// Creates `path` and its missing parents (like mkdir -p), e.g. ~/.local/state/photokiosk on a
    /// first run outside systemd, which creates /var/lib/photokiosk itself.
    public static func makeDirectories(_ path: String, mode: mode_t = 0o755) -> Bool {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, mode) != 0 && errno != EEXIST { return false }
        }
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func directoryOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }
}
