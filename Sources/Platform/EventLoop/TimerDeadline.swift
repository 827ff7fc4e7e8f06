import Glibc

/// A CLOCK_MONOTONIC deadline as timerfd takes it (an absolute `timespec`). It converts; it
/// reads no clock: that is `SystemClock.monotonicSeconds()`, the base of the loop's `now`,
/// libinput and DRM timestamps.
enum TimerDeadline {
    /// An absolute `timespec` for `seconds`; never all-zero, because zero disarms a timerfd.
    static func timespec(_ seconds: Double) -> Glibc.timespec {
        let clamped = max(seconds, 1e-9)
        let whole = clamped.rounded(.down)
        var ns = Int((clamped - whole) * 1e9)
        if ns >= 1_000_000_000 { ns = 999_999_999 }
        var ts = Glibc.timespec(tv_sec: Int(whole), tv_nsec: ns)
        if ts.tv_sec == 0 && ts.tv_nsec == 0 { ts.tv_nsec = 1 }
        return ts
    }
}
