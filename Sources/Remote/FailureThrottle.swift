/// Slows down guessing: after a few failed logins from one address, each further failure from
/// it is answered only after a delay that doubles (up to a cap), so a token cannot be tried
/// quickly. A success from the address forgets its failures; quiet addresses are forgotten.
/// Time comes from the caller (monotonic seconds), so tests run it on a virtual clock.
public struct FailureThrottle: Sendable {
    public struct Policy: Sendable {
        /// Failures answered at once.
        public var freeFailures = 3
        /// The delay after the first failure beyond the free ones, seconds; then doubled.
        public var firstDelay = 1.0
        /// Below the server's idle timeout (20 s), so a delayed answer still finds its connection.
        public var maximumDelay = 10.0
        /// Seconds without a failure after which an address starts fresh.
        public var forgetAfter = 900.0
        /// Addresses remembered at most (the quietest are dropped first).
        public var maximumAddresses = 4096
        public init() {}
    }

    private struct Record: Sendable {
        var failures: Int
        var last: Double
    }

    public let policy: Policy
    private var records: [String: Record] = [:]

    public init(policy: Policy = Policy()) { self.policy = policy }

    /// Records a failure from `address` at `now`; returns how long to wait before answering it.
    public mutating func recordFailure(from address: String, now: Double) -> Double {
        var record = records[address].flatMap { now - $0.last < policy.forgetAfter ? $0 : nil } ?? Record(failures: 0, last: now)
        // Saturating: the count only chooses a delay, which stops growing long before this.
        record.failures = min(record.failures, Self.maximumCountedFailures - 1) + 1
        record.last = now
        records[address] = record
        if records.count > policy.maximumAddresses { forgetQuietest() }
        return delay(afterFailures: record.failures)
    }

    public mutating func recordSuccess(from address: String) {
        records[address] = nil
    }

    /// The delay for the `failures`-th failure in a row.
    public func delay(afterFailures failures: Int) -> Double {
        // Bounded: the doubling loop must not run once per failure ever counted.
        let beyond = min(failures, Self.maximumCountedFailures) - policy.freeFailures
        guard beyond > 0 else { return 0 }
        var delay = policy.firstDelay
        for _ in 1..<beyond where delay < policy.maximumDelay { delay *= 2 }
        return min(delay, policy.maximumDelay)
    }

    public var rememberedAddresses: Int { records.count }

    static let maximumCountedFailures = 1_000

    private mutating func forgetQuietest() {
        let sorted = records.sorted { $0.value.last < $1.value.last }
        for (address, _) in sorted.prefix(records.count - policy.maximumAddresses) { records[address] = nil }
    }
}
