import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The path-level calls swift-system 1.8 does not wrap (rename, unlink, mkdir, realpath), with
/// the same typed errors; `Stat` (swift-system) covers stat, lstat and fstatat.
public enum FileSystemCalls {
    public static func rename(_ source: FilePath, to target: FilePath) throws(SystemError) {
        let result = source.withPlatformString { from in target.withPlatformString { to in Glibc.rename(from, to) } }
        guard result == 0 else { throw SystemError("rename", path: target, errno: SystemError.lastErrno) }
    }

    public static func unlink(_ path: FilePath) throws(SystemError) {
        guard path.withPlatformString({ Glibc.unlink($0) }) == 0 else {
            throw SystemError("unlink", path: path, errno: SystemError.lastErrno)
        }
    }

    /// Removes an empty directory.
    public static func removeDirectory(_ path: FilePath) throws(SystemError) {
        guard path.withPlatformString({ rmdir($0) }) == 0 else {
            throw SystemError("rmdir", path: path, errno: SystemError.lastErrno)
        }
    }

    /// Creates one directory; EEXIST is reported like any other failure (callers that want
    /// `mkdir -p` use `makeDirectories`).
    public static func makeDirectory(_ path: FilePath, permissions: FilePermissions) throws(SystemError) {
        guard path.withPlatformString({ mkdir($0, permissions.rawValue) }) == 0 else {
            throw SystemError("mkdir", path: path, errno: SystemError.lastErrno)
        }
    }

    /// Creates `path` and its missing parents (like mkdir -p); fails when something that is not
    /// a directory is in the way.
    public static func makeDirectories(_ path: FilePath, permissions: FilePermissions) throws(SystemError) {
        if let existing = try? status(path) {
            guard existing.type == .directory else { throw SystemError("mkdir", path: path, errno: .notDirectory) }
            return
        }
        var parent = path
        if parent.removeLastComponent(), !parent.components.isEmpty {
            try makeDirectories(parent, permissions: permissions)
        }
        do {
            try makeDirectory(path, permissions: permissions)
        } catch where error.errno == .fileExists {
            // Made meanwhile by another process; fine if it is a directory.
            guard (try? status(path))?.type == .directory else { throw error }
        }
    }

    /// `stat` (following a final link) or `lstat`.
    public static func status(_ path: FilePath, followingLinks: Bool = true) throws(SystemError) -> Stat {
        do {
            return try Stat(path, followTargetSymlink: followingLinks)
        } catch {
            throw SystemError(followingLinks ? "stat" : "lstat", path: path, errno: error)
        }
    }

    /// A second name for the file at `source` (a hard link); EEXIST when `target` is taken.
    public static func link(_ source: FilePath, to target: FilePath) throws(SystemError) {
        let result = source.withPlatformString { from in target.withPlatformString { to in Glibc.link(from, to) } }
        guard result == 0 else { throw SystemError("link", path: target, errno: SystemError.lastErrno) }
    }

    /// Fails unless this process may write into `path` (`access(W_OK)`: permissions, a
    /// read-only mount).
    public static func checkWritable(_ path: FilePath) throws(SystemError) {
        guard path.withPlatformString({ access($0, W_OK) }) == 0 else {
            throw SystemError("access", path: path, errno: SystemError.lastErrno)
        }
    }

    /// Whether anything is at `path` (a dangling link counts as nothing).
    public static func exists(_ path: FilePath) -> Bool {
        path.withPlatformString { access($0, F_OK) } == 0
    }

    /// The whole file at `path`; EFBIG when it holds more than `limit` bytes.
    public static func contents(of path: FilePath, limit: Int) throws(SystemError) -> [UInt8] {
        let file = try FileDescriptor.openFile(path, .readOnly)
        defer { file.closeQuietly() }
        do throws(Errno) {
            guard let bytes = try file.readToEnd(limit: limit) else { throw Errno.fileTooLarge }
            return bytes
        } catch {
            throw SystemError("read", path: path, errno: error)
        }
    }

    /// Sets the modification time to now (`utimensat`): marks a cache entry as recently used.
    public static func touch(_ path: FilePath) throws(SystemError) {
        guard path.withPlatformString({ utimensat(AT_FDCWD, $0, nil, 0) }) == 0 else {
            throw SystemError("utimensat", path: path, errno: SystemError.lastErrno)
        }
    }

    /// The canonical absolute path with every link resolved (`realpath`), or nil when it does
    /// not exist.
    public static func resolved(_ path: FilePath) -> FilePath? {
        path.withPlatformString { cPath -> FilePath? in
            guard let real = realpath(cPath, nil) else { return nil }
            defer { free(real) }
            return FilePath(platformString: real)
        }
    }
}
