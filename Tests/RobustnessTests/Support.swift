import Glibc
import Graphics
import Imaging
import Logging
import Platform
@testable import PhotoKioskApp
import TestSupport
import SystemAccess

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

/// The process's descriptor count once other suites' short-lived descriptors have closed: the
/// tests run in parallel in one process, so a single reading can catch another suite's sockets and
/// temporary files (CI once read 68 -> 78 with no leak). Samples for up to `patience` seconds and
/// returns the first reading at or under `limit`, else the lowest seen: a real leak stays above it.
func settledDescriptorCount(limit: Int, patience: Double = 15) -> Int {
    var lowest = openDescriptorCount()
    var waited = 0.0
    while lowest > limit && waited < patience {
        usleep(250_000)
        waited += 0.25
        lowest = min(lowest, openDescriptorCount())
    }
    return lowest
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
/// `thumbnailSize` is in points: 90 are 150 px at 1600x1200's chrome scale (1.67).
func makeHeadlessApp(folders: [String], width: Int = 1600, height: Int = 1200, thumbnailSize: Int = 90,
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
