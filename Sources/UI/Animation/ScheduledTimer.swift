/// A handle to a one-shot or repeating timer on a `Scheduler`.
public final class ScheduledTimer {
    let id: Int
    private weak var scheduler: Scheduler?

    init(id: Int, scheduler: Scheduler) {
        self.id = id
        self.scheduler = scheduler
    }

    /// False once a one-shot timer fired or the timer was invalidated.
    public var isValid: Bool { scheduler?.isTimerScheduled(id) ?? false }

    public func invalidate() {
        scheduler?.invalidateTimer(id)
    }
}
