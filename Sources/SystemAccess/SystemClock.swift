import Glibc

/// The kernel's clocks, read in one place: the monotonic clock for deadlines and durations,
/// the real-time clock for stamps compared with file times, and thread CPU time for benchmarks.
public enum SystemClock {
    /// CLOCK_MONOTONIC in seconds: the clock of timerfd deadlines, libinput and DRM timestamps.
    public static func monotonicSeconds() -> Double { seconds(CLOCK_MONOTONIC) }

    /// CLOCK_REALTIME in nanoseconds since the epoch, the base of file modification times.
    public static func realtimeNanoseconds() -> Int64 {
        let now = read(CLOCK_REALTIME)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// CLOCK_REALTIME in whole seconds since the epoch.
    public static func realtimeSeconds() -> Int64 { Int64(read(CLOCK_REALTIME).tv_sec) }

    /// CPU time the calling thread has used, in seconds.
    public static func threadCPUSeconds() -> Double { seconds(CLOCK_THREAD_CPUTIME_ID) }

    private static func seconds(_ clock: clockid_t) -> Double {
        let now = read(clock)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private static func read(_ clock: clockid_t) -> timespec {
        var now = timespec()
        clock_gettime(clock, &now)
        return now
    }
}
