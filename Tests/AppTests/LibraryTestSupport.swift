import Graphics
import Imaging
import Logging
import PhotoKioskApp
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under /tmp (resolved, so paths compare with what the scanner reports),
/// removed with everything in it when dropped.
final class LibraryScratch {
    let path: RawPath

    init() {
        var template = Array("/tmp/pk-library-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = RawPath(cString: made!).resolved()!
    }

    deinit { removeTree(path) }

    subscript(relative: String) -> RawPath { path.appending(relative) }

    @discardableResult
    func file(_ relative: String, bytes: [UInt8] = []) -> RawPath {
        let file = path.appending(relative)
        makeDirectory(file.parent)
        writeFile(file, bytes)
        return file
    }

    @discardableResult
    func directory(_ relative: String) -> RawPath {
        let dir = path.appending(relative)
        makeDirectory(dir)
        return dir
    }
}

func makeDirectory(_ path: RawPath) {
    var info = stat()
    if path.withCString({ stat($0, &info) }) == 0 { return }
    makeDirectory(path.parent)
    _ = path.withCString { mkdir($0, 0o755) }
}

func writeFile(_ path: RawPath, _ bytes: [UInt8]) {
    let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
    precondition(fd >= 0, "cannot create \(path): \(errno)")
    if !bytes.isEmpty { _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
    close(fd)
}

func symlink(_ target: String, at link: RawPath) {
    let result = link.withCString { linkPath in symlink(target, linkPath) }
    precondition(result == 0, "symlink failed")
}

func rename(_ from: RawPath, _ to: RawPath) {
    let result = from.withCString { a in to.withCString { b in rename(a, b) } }
    precondition(result == 0, "rename failed: \(errno)")
}

func setModificationTime(_ path: RawPath, seconds: Int) {
    var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
    _ = path.withCString { utimensat(AT_FDCWD, $0, &times, 0) }
}

func removeTree(_ path: RawPath) {
    var info = stat()
    guard path.withCString({ lstat($0, &info) }) == 0 else { return }
    if (info.st_mode & S_IFMT) == S_IFDIR {
        _ = path.withCString { chmod($0, 0o755) }
        if let dir = path.withCString({ opendir($0) }) {
            var names: [[UInt8]] = []
            while let entry = readdir(dir) {
                let name = { (p: UnsafeRawPointer) in Array(UnsafeRawBufferPointer(start: p, count: strlen(p.assumingMemoryBound(to: CChar.self)))) }(UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!)
                if name != [46] && name != [46, 46] { names.append(name) }
            }
            closedir(dir)
            for name in names { removeTree(path.appending(name)) }
        }
        _ = path.withCString { rmdir($0) }
    } else {
        _ = path.withCString { unlink($0) }
    }
}

/// Collects log messages so tests can check that each skipped entry is logged once.
final class CapturedLog: Sendable {
    let messages = Locked<[String]>([])

    var logger: Logger {
        Logger(label: "test") { _ in CapturingHandler(log: self) }
    }

    var lines: [String] { messages.withLock { $0 } }
}

struct CapturingHandler: LogHandler {
    let log: CapturedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        log.messages.withLock { $0.append(event.message.description) }
    }
}

extension PhotoList {
    var paths: [RawPath] { photos.map(\.path) }
}
