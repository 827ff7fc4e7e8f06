import CHTTP
import Glibc
import SystemAccess
import SystemPackage

/// The one folder uploads go into, as the file system sees it: whether it can be written, how
/// much space is left, new files in it, and removing a file from it. Names are bytes (a plain
/// base name; the caller has made it safe).
public struct UploadFolder: Sendable {
    public let path: String
    /// Told whether uploads reach the disk (a failing card is reported once, for every writer).
    public let health: StorageHealth

    public init(path: String, health: StorageHealth = .shared) {
        self.path = path
        self.health = health
    }

    /// nil when uploads can be written here, else why not ("read-only file system").
    public func unwritableReason() -> String? {
        let info: Stat
        do {
            info = try FileSystemCalls.status(FilePath(path))
        } catch {
            return "\(path): \(error.errno)"
        }
        guard info.type == .directory else { return "\(path) is not a folder" }
        do {
            try FileSystemCalls.checkWritable(FilePath(path))
        } catch {
            return "\(path) is not writable: \(error.errno)"
        }
        return nil
    }

    /// Makes the folder and its missing parents (mode 755); true when it exists afterwards.
    public func makeIfMissing() -> Bool {
        try? FileSystemCalls.makeDirectories(FilePath(path), permissions: [.ownerReadWriteExecute, .groupReadExecute, .otherReadExecute])
        return (try? FileSystemCalls.status(FilePath(path)))?.type == .directory
    }

    /// Bytes an unprivileged writer may still use on the folder's file system.
    public func availableBytes() -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// A new temporary file in the folder (hidden, no photo extension, so the library scan
    /// never lists it).
    public func newFile() throws(UploadFileError) -> UploadFile {
        try UploadFile(folder: self)
    }

    /// Removes the temporary files of uploads a crash or power cut interrupted (they are hidden
    /// and never listed as photos, but would fill the disk). Returns how many were removed.
    @discardableResult
    public func removeInterruptedUploads() -> Int {
        let names = path.withCString { entryNames(inDirectory: $0) } ?? []
        let stale = names.filter { UploadFile.isTemporaryName($0) }
        for name in stale { try? FileSystemCalls.unlink(filePath(name)) }
        if !stale.isEmpty { syncDirectory() }
        return stale.count
    }

    /// Whether a plain file called `name` is in the folder (not below it).
    public func containsFile(named name: [UInt8]) -> Bool {
        (try? FileSystemCalls.status(filePath(name)))?.type == .regular
    }

    public func removeFile(named name: [UInt8]) throws(UploadFileError) {
        do {
            try FileSystemCalls.unlink(filePath(name))
        } catch {
            throw UploadFileError(step: "unlink", errno: error.errno, path: error.path)
        }
        syncDirectory()
    }

    /// Makes a rename or unlink in the folder survive a power cut.
    func syncDirectory() {
        guard let folder = try? FileDescriptor.openFile(FilePath(path), .readOnly, options: [.directory]) else { return }
        try? folder.sync()
        folder.closeQuietly()
    }

    /// The full path of `name` in the folder.
    func filePath(_ name: [UInt8]) -> FilePath {
        withPath(name) { FilePath(platformString: $0) }
    }

    /// The full path of `name` in the folder, as a C string.
    func withPath<R>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        var bytes = Array(path.utf8)
        if bytes.last != UInt8(ascii: "/") { bytes.append(UInt8(ascii: "/")) }
        bytes += name
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }
}

public struct UploadFileError: Error, Sendable, CustomStringConvertible {
    public var step: String
    public var errno: Errno
    /// The file or folder it was about.
    public var path: FilePath?

    public init(step: String, errno code: Errno, path: FilePath? = nil) {
        self.step = step
        self.errno = code
        self.path = path
    }

    public var description: String {
        "\(step)\(path.map { " \($0)" } ?? ""): \(self.errno)"
    }
}

/// One upload on its way to disk: written to a hidden temporary file, then `keep` fsyncs it and
/// renames it to a name that does not exist yet (never over another file), so a cut connection
/// or a power cut leaves no half photo in the library. `discard` removes it.
public final class UploadFile {
    public let folder: UploadFolder
    public let temporaryName: [UInt8]
    public private(set) var byteCount: Int64 = 0
    private var file: FileDescriptor?
    private var isKept = false

    init(folder: UploadFolder) throws(UploadFileError) {
        self.folder = folder
        let name = Array("\(Self.temporaryPrefix)\(SecureRandom.hex(8))\(Self.temporarySuffix)".utf8)
        do {
            file = try FileDescriptor.openFile(folder.filePath(name), .writeOnly, options: [.create, .exclusiveCreate],
                                               permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            folder.health.recordFailure(path: folder.filePath(name).string, errno: error.errno)
            throw UploadFileError(step: "create a temporary file", errno: error.errno, path: error.path)
        }
        temporaryName = name
    }

    deinit { discard() }

    static let temporaryPrefix = ".upload-"
    static let temporarySuffix = ".part"

    static func isTemporaryName(_ name: [UInt8]) -> Bool {
        name.starts(with: Array(temporaryPrefix.utf8)) && name.count == temporaryPrefix.utf8.count + 16 + temporarySuffix.utf8.count
            && name.suffix(temporarySuffix.utf8.count).elementsEqual(temporarySuffix.utf8)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(UploadFileError) {
        guard let file else { throw UploadFileError(step: "write", errno: .badFileDescriptor) }
        do {
            try file.writeAll(from: bytes)
        } catch {
            folder.health.recordFailure(path: folder.filePath(temporaryName).string, errno: error)
            throw UploadFileError(step: "write", errno: error, path: folder.filePath(temporaryName))
        }
        byteCount += Int64(bytes.count)
    }

    /// The temporary path as bytes (the folder's path is text, the name ASCII).
    public var temporaryPathBytes: [UInt8] {
        folder.withPath(temporaryName) { Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) } }
    }

    /// Syncs the data, then renames the file to the first of `candidates(1)`, `candidates(2)`, …
    /// that is free (at most 1000 tries). Returns the name it got.
    public func keep(candidates: (Int) -> [UInt8]) throws(UploadFileError) -> [UInt8] {
        guard let file else { throw UploadFileError(step: "keep", errno: .badFileDescriptor) }
        do {
            try file.sync()
        } catch {
            folder.health.recordFailure(path: folder.filePath(temporaryName).string, errno: error)
            discard()
            throw UploadFileError(step: "fsync", errno: error, path: folder.filePath(temporaryName))
        }
        file.closeQuietly()
        self.file = nil
        for attempt in 1...1000 {
            let name = candidates(attempt)
            do {
                try Self.renameWithoutReplacing(folder.filePath(temporaryName), to: folder.filePath(name))
                isKept = true
                folder.syncDirectory()
                folder.health.recordSuccess()
                return name
            } catch where error.errno != .fileExists {
                folder.health.recordFailure(path: folder.filePath(temporaryName).string, errno: error.errno)
                discard()
                throw UploadFileError(step: "rename", errno: error.errno, path: error.path)
            } catch {
                continue   // taken: try the next name
            }
        }
        discard()
        throw UploadFileError(step: "find a free name", errno: .fileExists, path: FilePath(folder.path))
    }

    /// Removes the temporary file (a refused or cut upload). Safe to call twice.
    public func discard() {
        file?.closeQuietly()
        file = nil
        guard !isKept else { return }
        try? FileSystemCalls.unlink(folder.filePath(temporaryName))
    }

    /// rename that fails with EEXIST instead of replacing: renameat2(RENAME_NOREPLACE), or a
    /// hard link and unlink where the file system lacks it.
    private static func renameWithoutReplacing(_ source: FilePath, to target: FilePath) throws(SystemError) {
        // renameat2 goes through the C shim: Swift cannot call the variadic syscall().
        let result = source.withPlatformString { from in target.withPlatformString { to in chttp_rename_noreplace(from, to) } }
        if result == 0 { return }
        let failure = SystemError.lastErrno
        guard failure == .invalidArgument || failure == .noFunction else {
            throw SystemError("renameat2", path: target, errno: failure)
        }
        try FileSystemCalls.link(source, to: target)
        try? FileSystemCalls.unlink(source)
    }
}
