#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock in seconds, for measurements that are printed, never asserted.
public func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// How long `body` took, in seconds.
public func measureSeconds(_ body: () throws -> Void) rethrows -> Double {
    let start = monotonicSeconds()
    try body()
    return monotonicSeconds() - start
}
