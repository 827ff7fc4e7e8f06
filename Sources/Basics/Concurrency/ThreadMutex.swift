#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex. The project locks with this rather than `Synchronization.Mutex` because on
/// Linux `Mutex` waits with raw futex system calls that ThreadSanitizer cannot see, so every
/// access it guards is reported as a race; pthread calls are intercepted, so the lock's
/// happens-before edges are known and `scripts/sanitizers.sh tsan` reports only real races.
/// Heap-allocated because a pthread mutex must not move once initialised.
public final class ThreadMutex: @unchecked Sendable {
    let raw = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(raw, nil)
    }

    deinit {
        pthread_mutex_destroy(raw)
        raw.deallocate()
    }

    public func withLock<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(raw)
        defer { pthread_mutex_unlock(raw) }
        return try body()
    }
}
