import SystemAccess

/// Runs a handler on the loop thread whenever the wall clock is set (a `WallClockSetAlarm`
/// watched by the loop). The schedule and the on-screen clock read the wall clock again then;
/// everything timed by intervals runs on the monotonic clock and does not care.
public final class WallClockWatch {
    private let loop: any EventLoopRegistry
    private let alarm: WallClockSetAlarm
    /// Changes seen so far (a test or a log line can tell them).
    public private(set) var changes = 0

    public init(loop: any EventLoopRegistry, onSet: @escaping () -> Void) throws(PlatformError) {
        self.loop = loop
        do { alarm = try WallClockSetAlarm() } catch { throw .system(error) }
        let alarm = self.alarm
        try loop.watch(alarm.descriptor) { [weak self] in
            // A failed read cannot be retried usefully; the watch just stays quiet then.
            guard (try? alarm.acknowledge()) == true else { return }
            self?.changes += 1
            onSet()
        }
    }

    deinit { loop.unwatch(alarm.descriptor) }
}
