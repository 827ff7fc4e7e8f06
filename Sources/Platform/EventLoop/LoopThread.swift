import Glibc

/// The thread an `EventLoop` runs on, as a value other threads may carry: to check against,
/// never to run on. Loop-only code asserts it is on this thread (debug builds; the check costs
/// a release build nothing), the way swift-nio's `NIOLoopBound` checks every access.
public struct LoopThread: Sendable, Equatable {
    private let id: pthread_t

    /// The calling thread.
    public static var current: LoopThread { LoopThread(id: pthread_self()) }

    /// Whether the caller runs on this thread.
    public var isCurrent: Bool { pthread_equal(id, pthread_self()) != 0 }

    /// Stops a debug build when called from another thread.
    public func assertCurrent(_ what: @autoclosure () -> String = "loop-only code",
                              file: StaticString = #fileID, line: UInt = #line) {
        assert(isCurrent, "\(what()) used off the event loop's thread", file: file, line: line)
    }

    public static func == (a: LoopThread, b: LoopThread) -> Bool { pthread_equal(a.id, b.id) != 0 }
}
