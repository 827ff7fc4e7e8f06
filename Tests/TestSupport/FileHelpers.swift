import SystemAccess
import Imaging
#if canImport(Glibc)
import Glibc
#endif

/// Makes a directory and any missing directories above it.
public func makeDirectory(_ path: RawPath) {
    var info = stat()
    if path.withCString({ stat($0, &info) }) == 0 { return }
    makeDirectory(path.parent)
    _ = path.withCString { mkdir($0, 0o755) }
}

public func writeFile(_ path: RawPath, _ bytes: [UInt8]) {
    let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
    precondition(fd >= 0, "cannot create \(path): \(errno)")
    if !bytes.isEmpty { _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
    close(fd)
}

/// The whole file, or nil when it cannot be opened.
public func readFile(_ path: RawPath) -> [UInt8]? {
    let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { return result }
        result += buffer[0..<n]
    }
}

/// True when something (even a dangling link) stands at the path.
public func fileExists(_ path: RawPath) -> Bool {
    var info = stat()
    return path.withCString { lstat($0, &info) } == 0
}

/// Sets a file's mtime (and atime) to `seconds` since the epoch.
public func setModificationTime(_ path: RawPath, seconds: Int) {
    var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
    _ = path.withCString { utimensat(AT_FDCWD, $0, &times, 0) }
}

/// Removes a file or a whole tree (test clean-up; ignores errors, does not follow links).
public func removeTree(_ path: RawPath) {
    var info = stat()
    guard path.withCString({ lstat($0, &info) }) == 0 else { return }
    if (info.st_mode & S_IFMT) == S_IFDIR {
        _ = path.withCString { chmod($0, 0o755) }  // a test may have made it unreadable
        for name in directoryEntryNames(path) ?? [] { removeTree(path.appending(name)) }
        _ = path.withCString { rmdir($0) }
    } else {
        _ = path.withCString { unlink($0) }
    }
}

public func removeTree(_ path: String) { removeTree(RawPath(path)) }

/// Names in a directory, sorted (without "." and "..").
public func directoryNames(_ path: String) -> [String] {
    (directoryEntryNames(RawPath(path)) ?? []).map { String(decoding: $0, as: UTF8.self) }.sorted()
}

/// Names in a directory as bytes, in readdir order (without "." and ".."); nil if it cannot be opened.
public func directoryEntryNames(_ path: RawPath) -> [[UInt8]]? {
    path.withCString { entryNames(inDirectory: $0) }
}
