/// When a failed state write may be tried again without a change to prompt it: 5 s after the
/// first failure, doubling to at most 5 minutes, on the monotonic clock. A failing SD card is
/// then asked a handful of times an hour, never in a loop; a success resets it.
public struct WriteRetryBackoff: Sendable, Equatable {
    public static let firstDelay: Double = 5
    public static let longestDelay: Double = 300

    public private(set) var delay: Double = 0
    /// Monotonic seconds before which no retry is made; -inf while writes work.
    public private(set) var notBefore = -Double.infinity

    public init() {}

    public func allowsAttempt(at now: Double) -> Bool { now >= notBefore }

    public mutating func failed(at now: Double) {
        delay = delay == 0 ? Self.firstDelay : min(delay * 2, Self.longestDelay)
        notBefore = now + delay
    }

    public mutating func succeeded() {
        delay = 0
        notBefore = -Double.infinity
    }
}
