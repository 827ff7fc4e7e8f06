import Basics
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

    func decode(_ request: ImageRequest) throws -> LoadedImage {
        calls.withLock { $0.append(request.key) }
        if heldKeys.contains(request.key) {
            started.signal()
            gate.wait()
        }
        if failing.contains(request.key) { throw Failure() }
        return LoadedImage(bitmap: Bitmap(width: 4, height: 4))
    }

    var decoded: [ImageKey] { calls.withLock { $0 } }

    /// Waits until a worker is inside the decode of a held key.
    func waitUntilHeld() -> Bool { started.wait(timeout: .now() + 20) == .success }
    func release() { gate.signal() }
}

/// A loader with one worker (so the order of decodes is the order the queue gives) that delivers
/// into a fresh TestLoop.
func oneWorkerLoader(_ decoder: any ImageSourceDecoder) -> (ImageLoader, TestLoop) {
    let loop = TestLoop()
    return (ImageLoader(decoder: decoder, workerCount: 1, deliver: loop.deliver), loop)
}

func key(_ name: String, _ size: SizeClass = .thumbnail(edge: 128)) -> ImageKey {
    ImageKey(path: RawPath("/photos/\(name).jpg"), size: size)
}
