import Basics
import CLinux
import Glibc
import Graphics

/// The thread-safe door into an `EventLoop`: decode workers post closures here, an eventfd
/// wakes the loop, and the loop runs them on its own thread in posting order.
public final class Mailbox: Sendable {
    let eventFD: Int32
    private let queue = Locked<[@Sendable () -> Void]>([])
    /// The loop's thread, where posted work runs (for `LoopBound` values posted work carries).
    public let thread: LoopThread

    init(thread: LoopThread) throws(PlatformError) {
        let fd = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard fd >= 0 else { throw .failed("eventfd", errno: errno) }
        eventFD = fd
        self.thread = thread
    }

    deinit { close(eventFD) }

    /// Queues `work` to run on the loop thread and wakes the loop. Callable from any thread.
    public func post(_ work: @Sendable @escaping () -> Void) {
        let wasEmpty = queue.withLock { q in
            q.append(work)
            return q.count == 1
        }
        // One wakeup per batch: the loop drains the whole queue when it runs.
        if wasEmpty {
            var one: UInt64 = 1
            // Only an overflowing counter (2^64 - 1 unread posts) or a closed eventfd fails.
            let written = write(eventFD, &one, 8)
            precondition(written == 8, "write(eventfd): errno \(errno)")
        }
    }

    /// Runs everything queued so far; called by the loop when the eventfd is readable.
    func drain() {
        thread.assertCurrent("Mailbox.drain")
        var counter: UInt64 = 0
        // EAGAIN: a drain earlier in this turn already read the counter.
        if read(eventFD, &counter, 8) < 0 && errno != EAGAIN {
            preconditionFailure("read(eventfd): errno \(errno)")
        }
        let work = queue.withLock { q in
            let all = q
            q.removeAll(keepingCapacity: true)
            return all
        }
        for item in work { item() }
    }
}
