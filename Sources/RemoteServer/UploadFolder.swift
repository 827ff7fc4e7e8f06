import CHTTP
import SystemAccess
import Glibc

/// The one folder uploads go into, as the file system sees it: whether it can be written, how
/// much space is left, new files in it, and removing a file from it. Names are bytes (a plain
/// base name; the caller has made it safe).
public struct UploadFolder: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// nil when uploads can be written here, else why not ("read-only file system").
    public func unwritableReason() -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "\(path): \(String(cString: strerror(errno)))" }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return "\(path) is not a folder" }
        guard access(path, W_OK) == 0 else { return "\(path) is not writable: \(String(cString: strerror(errno)))" }
        return nil
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
        for name in stale { _ = withPath(name) { unlink($0) } }
        if !stale.isEmpty { syncDirectory() }
        return stale.count
    }

    /// Whether a plain file called `name` is in the folder (not below it).
    public func containsFile(named name: [UInt8]) -> Bool {
        var info = stat()
        return withPath(name) { stat($0, &info) } == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    public func removeFile(named name: [UInt8]) throws(UploadFileError) {
        guard withPath(name, { unlink($0) }) == 0 else { throw UploadFileError(step: "unlink", errno: errno) }
        syncDirectory()
    }

    /// Makes a rename or unlink in the folder survive a power cut.
    func syncDirectory() {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
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
    public var errno: Int32
    public var description: String { "\(step): \(String(cString: strerror(errno)))" }
}

/// One upload on its way to disk: written to a hidden temporary file, then `keep` fsyncs it and
/// renames it to a name that does not exist yet (never over another file), so a cut connection
/// or a power cut leaves no half photo in the library. `discard` removes it.
public final class UploadFile {
    public let folder: UploadFolder
    public let temporaryName: [UInt8]
    public private(set) var byteCount: Int64 = 0
    private var fd: Int32
    private var isKept = false

    init(folder: UploadFolder) throws(UploadFileError) {
        self.folder = folder
        let name = Array("\(Self.temporaryPrefix)\(SecureRandom.hex(8))\(Self.temporarySuffix)".utf8)
        let fd = folder.withPath(name) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw UploadFileError(step: "create a temporary file in \(folder.path)", errno: errno) }
        self.fd = fd
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
        guard fd >= 0 else { throw UploadFileError(step: "write", errno: EBADF) }
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw UploadFileError(step: "write", errno: n == 0 ? EIO : errno) }
            done += n
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
        guard fd >= 0 else { throw UploadFileError(step: "keep", errno: EBADF) }
        guard fsync(fd) == 0 else {
            let error = UploadFileError(step: "fsync", errno: errno)
            discard()
            throw error
        }
        close(fd)
        fd = -1
        for attempt in 1...1000 {
            let name = candidates(attempt)
            let result = folder.withPath(temporaryName) { from in
                folder.withPath(name) { to in Self.renameWithoutReplacing(from, to) }
            }
            if result == 0 {
                isKept = true
                folder.syncDirectory()
                return name
            }
            if errno != EEXIST {
                let error = UploadFileError(step: "rename", errno: errno)
                discard()
                throw error
            }
        }
        discard()
        throw UploadFileError(step: "find a free name", errno: EEXIST)
    }

    /// Removes the temporary file (a refused or cut upload). Safe to call twice.
    public func discard() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        guard !isKept else { return }
        _ = folder.withPath(temporaryName) { unlink($0) }
    }

    /// rename that fails with EEXIST instead of replacing: renameat2(RENAME_NOREPLACE), or a
    /// hard link and unlink where the file system lacks it.
    private static func renameWithoutReplacing(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 {
        if chttp_rename_noreplace(from, to) == 0 { return 0 }
        guard errno == EINVAL || errno == ENOSYS else { return -1 }
        guard link(from, to) == 0 else { return -1 }
        unlink(from)
        return 0
    }
}
