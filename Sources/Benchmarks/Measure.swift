import Glibc

/// Clocks for measuring: wall time (CLOCK_MONOTONIC) and this thread's CPU time. The machine
/// is shared, so per-operation costs are reported in thread CPU time, which other processes'
/// load does not inflate; whole-app figures (time to first frame, latency) are wall time.
enum Clocks {
    static func wall() -> Double { read(CLOCK_MONOTONIC) }
    static func threadCPU() -> Double { read(CLOCK_THREAD_CPUTIME_ID) }

    /// User + system CPU seconds of the whole process (all threads).
    static func processCPU() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }

    private static func read(_ id: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// Repeated measurements of one figure: median and spread.
struct Samples {
    private(set) var values: [Double] = []

    init(_ values: [Double] = []) { self.values = values }

    mutating func add(_ value: Double) { values.append(value) }

    var isEmpty: Bool { values.isEmpty }
    var count: Int { values.count }
    var median: Double { percentile(50) }
    var sum: Double { values.reduce(0, +) }

    /// Nearest-rank percentile (0...100).
    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// p10...p90: how much repeated runs disagree.
    var spread: (low: Double, high: Double) { (percentile(10), percentile(90)) }
}

/// Runs `body` `count` times and returns each run's thread CPU time in seconds.
func cpuTimes(_ count: Int, _ body: () throws -> Void) rethrows -> Samples {
    var samples = Samples()
    for _ in 0..<count {
        let start = Clocks.threadCPU()
        try body()
        samples.add(Clocks.threadCPU() - start)
    }
    return samples
}
