import SystemAccess

// Clocks for measuring are the edge's: SystemClock.monotonicSeconds() for wall time and
// threadCPUSeconds() for this thread's CPU, ResourceUsage for the whole process's. The machine is
// shared, so per-operation costs are reported in thread CPU time, which other processes' load
// does not inflate; whole-app figures (time to first frame, latency) are wall time.

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
        let start = SystemClock.threadCPUSeconds()
        try body()
        samples.add(SystemClock.threadCPUSeconds() - start)
    }
    return samples
}
