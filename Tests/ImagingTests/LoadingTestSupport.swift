import Dispatch
import Graphics
import Imaging
#if canImport(Glibc)
import Glibc
#endif

/// Stands in for the app's event loop: the loader posts blocks here and the test runs them,
/// on the test's own thread, when it chooses.
final class TestLoop: Sendable {
    private let blocks = Locked<[@Sendable () -> Void]>([])
    private let posted = DispatchSemaphore(value: 0)

    var deliver: ImageLoader.Delivery {
        { [self] block in
            blocks.withLock { $0.append(block) }
            posted.signal()
        }
    }

    /// Blocks until `count` more posts arrived; false if they never do (a safety net, not a clock).
    func waitForPosts(_ count: Int) -> Bool {
        for _ in 0..<count where posted.wait(timeout: .now() + 20) == .timedOut { return false }
        return true
    }

    var pendingBlocks: Int { blocks.withLock { $0.count } }

    /// Runs every posted block; returns how many ran.
    @discardableResult
    func drain() -> Int {
        let taken = blocks.withLock { blocks in
            defer { blocks = [] }
            return blocks
        }
        for block in taken { block() }
        return taken.count
    }
}

/// A decoder that records every call and can hold a worker inside a decode until released.
final class RecordingDecoder: ImageSourceDecoder {
    private let calls = Locked<[ImageKey]>([])
    private let heldKeys: Set<ImageKey>
    private let started = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let failing: Set<ImageKey>

    struct Failure: Error, Equatable {}

    init(holding: Set<ImageKey> = [], failing: Set<ImageKey> = []) {
        self.heldKeys = holding
        self.failing = failing
    }

    func decode(_ request: ImageRequest) throws -> Bitmap {
        calls.withLock { $0.append(request.key) }
        if heldKeys.contains(request.key) {
            started.signal()
            gate.wait()
        }
        if failing.contains(request.key) { throw Failure() }
        return Bitmap(width: 4, height: 4)
    }

    var decoded: [ImageKey] { calls.withLock { $0 } }

    /// Waits until a worker is inside the decode of a held key.
    func waitUntilHeld() -> Bool { started.wait(timeout: .now() + 20) == .success }
    func release() { gate.signal() }
}

func key(_ name: String, _ size: SizeClass = .thumbnail(edge: 128)) -> ImageKey {
    ImageKey(path: RawPath("/photos/\(name).jpg"), size: size)
}

/// A small deterministic random generator so a failing sequence can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A fresh directory under /tmp, removed with everything in it when the value is dropped.
final class ScratchDirectory {
    let path: RawPath

    init() {
        var template = Array("/tmp/pk-loading-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = RawPath(cString: made!)
    }

    deinit { removeTree(path) }

    func file(_ name: String, bytes: [UInt8] = [1, 2, 3]) -> RawPath {
        let file = path.appending(name)
        writeFile(file, bytes)
        return file
    }
}

func writeFile(_ path: RawPath, _ bytes: [UInt8]) {
    let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
    precondition(fd >= 0, "cannot create \(path)")
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

func readFile(_ path: RawPath) -> [UInt8]? {
    let fd = path.withCString { open($0, O_RDONLY) }
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

func fileExists(_ path: RawPath) -> Bool {
    var info = stat()
    return path.withCString { lstat($0, &info) } == 0
}

/// Sets a file's mtime (and atime) to `seconds` since the epoch.
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
