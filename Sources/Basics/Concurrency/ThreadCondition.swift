#if canImport(Glibc)
import Glibc
#endif

/// A pthread condition variable used with a `ThreadMutex`: how a worker pool sleeps until there
/// is work. Heap-allocated because pthread objects must not move.
public final class ThreadCondition: @unchecked Sendable {
    private let raw = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_cond_init(raw, nil)
    }

    deinit {
        pthread_cond_destroy(raw)
        raw.deallocate()
    }

    /// Releases `mutex`, sleeps until signalled, and takes `mutex` again before returning. Call
    /// only while holding `mutex` (inside its `withLock`); wake-ups may be spurious, so callers
    /// re-check their condition in a loop.
    public func wait(releasing mutex: ThreadMutex) {
        pthread_cond_wait(raw, mutex.raw)
    }

    public func signal() { pthread_cond_signal(raw) }
    public func broadcast() { pthread_cond_broadcast(raw) }
}
