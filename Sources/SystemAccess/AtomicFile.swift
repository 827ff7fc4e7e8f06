import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

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
        public var errno: Errno
        public var description: String {
            "\(step) failed for \(path): \(errno)"
        }
    }

    ///
    /// The outcome goes to `health`: a failure with EIO, EROFS or ENOSPC marks the storage as
    /// failing (reported once), a success after failures as working again. A failure never
    /// touches the file already at `path`: only the temporary file is removed, and the rename
    /// that would replace the old contents happens only after the new ones are fsynced.
    public static func write(_ bytes: [UInt8], to path: String, health: StorageHealth = .shared,
                             failing: (Step) -> Bool = { _ in false }) throws(WriteError) {
        do {
            try writeSteps(bytes, to: path, failing: failing)
        } catch {
            health.recordFailure(path: path, errno: error.errno)
            throw error
        }
        health.recordSuccess()
    }

    private static func writeSteps(_ bytes: [UInt8], to path: String, failing: (Step) -> Bool) throws(WriteError) {
        let target = FilePath(path)
        let temporary = FilePath(path + ".tmp.\(getpid())")
        func fail(_ step: Step, _ code: Errno) -> WriteError {
            WriteError(step: step, path: path, errno: code)
        }
        /// A step that fails on purpose reports EIO, as a failing device would.
        func check(_ step: Step) throws(WriteError) {
            if failing(step) { throw fail(step, .ioError) }
        }

        let file: FileDescriptor
        do {
            try check(.createTemporary)
            file = try FileDescriptor.openFile(temporary, .writeOnly, options: [.create, .truncate],
                                               permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch let error as WriteError {
            throw error
        } catch {
            throw fail(.createTemporary, (error as? SystemError)?.errno ?? .ioError)
        }
        func discard(_ step: Step, _ code: Errno) -> WriteError {
            file.closeQuietly()
            try? FileSystemCalls.unlink(temporary)
            return fail(step, code)
        }
        do throws(Errno) {
            if failing(.write) { throw Errno.ioError }
            try file.writeAll(bytes)
        } catch {
            throw discard(.write, error)
        }
        do throws(Errno) {
            if failing(.syncFile) { throw Errno.ioError }
            try file.sync()
        } catch {
            throw discard(.syncFile, error)
        }
        file.closeQuietly()
        do {
            try check(.rename)
            try FileSystemCalls.rename(temporary, to: target)
        } catch let error as WriteError {
            try? FileSystemCalls.unlink(temporary)
            throw error
        } catch {
            try? FileSystemCalls.unlink(temporary)
            throw fail(.rename, (error as? SystemError)?.errno ?? .ioError)
        }
        // The new contents are in place; a failed directory sync only means the rename might not
        // survive a power cut yet, so it is still reported.
        do {
            try check(.syncDirectory)
            let directory = try FileDescriptor.openFile(FilePath(directoryOf(path)), .readOnly, options: [.directory])
            defer { directory.closeQuietly() }
            do { try directory.sync() } catch { throw fail(.syncDirectory, error) }
        } catch let error as WriteError {
            throw error
        } catch {
            throw fail(.syncDirectory, (error as? SystemError)?.errno ?? .ioError)
        }
    }

    /// Removes the file and makes the removal durable (fsync of its directory, as for a
    /// rename); false when there was nothing to remove or it could not be removed.
    @discardableResult
    public static func remove(_ path: String) -> Bool {
        guard (try? FileSystemCalls.unlink(FilePath(path))) != nil else { return false }
        if let directory = try? FileDescriptor.openFile(FilePath(directoryOf(path)), .readOnly, options: [.directory]) {
            try? directory.sync()
            directory.closeQuietly()
        }
        return true
    }

    /// The whole file, or nil when it does not exist or cannot be read.
    public static func read(_ path: String, limit: Int = 1 << 20) -> [UInt8]? {
        guard let file = try? FileDescriptor.openFile(FilePath(path), .readOnly) else { return nil }
        defer { file.closeQuietly() }
        return (try? file.readToEnd(limit: limit)) ?? nil
    }

    /// Creates `path` and its missing parents (like mkdir -p), e.g. ~/.local/state/photokiosk on a
    /// first run outside systemd, which creates /var/lib/photokiosk itself.
    public static func makeDirectories(_ path: String, mode: FilePermissions = [.ownerReadWriteExecute, .groupReadExecute, .otherReadExecute]) -> Bool {
        (try? FileSystemCalls.makeDirectories(FilePath(path), permissions: mode)) != nil
    }

    public static func directoryOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }
}
