#if canImport(Glibc)
import Glibc
#endif

/// CPU time and peak resident memory as the kernel accounts them to a process (getrusage, and
/// wait4 for a child): what the benchmarks charge a process with, whatever else the machine runs.
public struct ResourceUsage: Equatable, Sendable {
    public var userSeconds: Double
    public var systemSeconds: Double
    /// The high-water mark of resident memory (ru_maxrss), in bytes.
    public var maxResidentBytes: Int

    /// User plus system time: all threads', including those that have ended.
    public var cpuSeconds: Double { userSeconds + systemSeconds }

    public init(_ usage: rusage) {
        userSeconds = Self.seconds(usage.ru_utime)
        systemSeconds = Self.seconds(usage.ru_stime)
        maxResidentBytes = Int(usage.ru_maxrss) * 1024   // Linux reports kilobytes
    }

    /// This process so far (RUSAGE_SELF: every thread, the loader's workers too).
    public static func current() -> ResourceUsage {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)   // cannot fail for RUSAGE_SELF and a valid pointer
        return ResourceUsage(usage)
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1e6
    }
}
