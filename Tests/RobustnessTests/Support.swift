import Glibc
import Graphics
import Imaging
import Logging
import Platform
@testable import PhotoKioskApp

/// Collects every log line (level and message) so a test can count them.
final class LogCapture: Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
    }
    private let storage = Locked<[Line]>([])

    var lines: [Line] { storage.withLock { $0 } }
    /// Lines at warning level or above: what a broken file or a skipped entry produces.
    var warnings: [String] { lines.filter { $0.level >= .warning }.map(\.message) }

    func append(_ line: Line) { storage.withLock { $0.append(line) } }

    var logger: Logger {
        Logger(label: "robustness") { _ in CapturingHandler(capture: self) }
    }
}

struct CapturingHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        capture.append(.init(level: event.level, message: "\(event.message)"))
    }
}

/// A fresh directory under /tmp.
func makeTemporaryDirectory(_ prefix: String = "robust") -> String {
    var template = Array("/tmp/photokiosk-\(prefix)-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
}

/// Removes a tree (test clean-up; ignores errors).
func removeTree(_ path: String) {
    guard let dir = opendir(path) else { unlink(path); return }
    while let entry = readdir(dir) {
        let name = testDirentName(entry)
        if name == [0x2E] || name == [0x2E, 0x2E] { continue }
        let child = RawPath(path).appending(name)
        var info = stat()
        if child.withCString({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR {
            removeTree(String(decoding: child.bytes, as: UTF8.self))
            _ = child.withCString { rmdir($0) }
        } else {
            _ = child.withCString { unlink($0) }
        }
    }
    closedir(dir)
    rmdir(path)
}

/// Writes bytes to a raw (possibly non-UTF-8) path.
func writeRaw(_ bytes: [UInt8], to path: RawPath) throws {
    let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
    guard fd >= 0 else { throw ImagingError(.io, "cannot create \(path)") }
    defer { close(fd) }
    var written = 0
    while written < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
        guard n > 0 else { throw ImagingError(.io, "cannot write \(path)") }
        written += n
    }
}

/// Resident set size of this process in bytes (/proc/self/statm).
func residentBytes() -> Int {
    guard let bytes = AtomicFile.read("/proc/self/statm") else { return 0 }
    let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ")
    return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Open file descriptors of this process.
func openDescriptorCount() -> Int {
    guard let dir = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(dir) }
    var count = 0
    while readdir(dir) != nil { count += 1 }
    return count - 3  // ".", ".." and the directory's own descriptor
}

/// A solid-colour photo.
func solidPhoto(_ color: Color, width: Int = 160, height: Int = 120, options: JPEGEncoder.Options = .init(quality: 95)) throws -> [UInt8] {
    let bitmap = Bitmap(width: width, height: height)
    Canvas(target: bitmap).clear(color)
    return try JPEGEncoder.encode(bitmap, options: options)
}

func colorsClose(_ a: Color, _ b: Color, tolerance: Int = 24) -> Bool {
    abs(Int(a.red) - Int(b.red)) < tolerance && abs(Int(a.green) - Int(b.green)) < tolerance
        && abs(Int(a.blue) - Int(b.blue)) < tolerance
}

/// Runs a whole KioskApp on a headless screen.
func makeHeadlessApp(folders: [String], width: Int = 1600, height: Int = 1200, thumbnailSize: Int = 150,
                     memoryMB: Int? = nil, logger: Logger) throws -> (KioskApp, HeadlessDisplay) {
    var config = KioskConfig()
    config.library.thumbnailSize = thumbnailSize
    if let memoryMB { config.cache.memoryMB = memoryMB }
    let display = HeadlessDisplay(width: width, height: height)
    let app = KioskApp(config: config, folders: folders, display: display, loop: try EventLoop(signals: []),
                       thumbnailCacheDirectory: nil, logger: logger)
    try app.start()
    return (app, display)
}

/// Names in a directory, sorted (without "." and "..").
func directoryNames(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = String(decoding: testDirentName(entry), as: UTF8.self)
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// The name of a directory entry from readdir. Read up to its NUL only: glibc sizes each entry
/// to its name, so copying the whole 256-byte `d_name` reads past the buffer (AddressSanitizer).
func testDirentName(_ entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
    let start = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    return Array(UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self))))
}
