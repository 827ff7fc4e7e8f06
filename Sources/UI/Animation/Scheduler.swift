/// Runs timers and per-frame animation steps off one clock.
///
/// Nothing here sleeps or polls: the app's event loop asks `nextDeadline`, arms a timer for it
/// (nil means nothing is scheduled, so it may sleep with zero wakeups) and calls `advance(to:)`
/// when it fires. Frame tasks tick at most once per `frameInterval`, whenever the loop calls in;
/// no fixed tick is assumed.
public final class Scheduler {
    /// Animations step at this pace while any is running.
    public static let frameInterval = 1.0 / 60
    /// Deadlines this close count as due, so float rounding in `now + 1/60` never skips a tick.
    static let tolerance = 1e-9

    public let clock: any UIClock
    private var timers: [Int: TimerEntry] = [:]
    private var frameTasks: [(id: Int, step: (Double) -> Bool)] = []
    private var lastFrame: Double = 0
    private var nextID = 0

    private struct TimerEntry {
        var fireAt: Double
        var interval: Double?
        var action: () -> Void
    }

    public init(clock: any UIClock) {
        self.clock = clock
    }

    public var now: Double { clock.now }

    /// When `advance(to:)` next has work; nil when idle.
    public var nextDeadline: Double? {
        var deadline = timers.values.map(\.fireAt).min()
        if !frameTasks.isEmpty {
            let frame = lastFrame + Self.frameInterval
            deadline = min(deadline ?? frame, frame)
        }
        return deadline
    }

    public var isIdle: Bool { timers.isEmpty && frameTasks.isEmpty }

    /// Runs the timers due by `now` (earliest first), then one step of every frame task if a
    /// frame is due.
    public func advance(to now: Double) {
        while let (id, entry) = timers.filter({ $0.value.fireAt <= now + Self.tolerance })
                .min(by: { ($0.value.fireAt, $0.key) < ($1.value.fireAt, $1.key) }) {
            if let interval = entry.interval {
                // A late loop skips missed ticks instead of firing them in a burst.
                var next = entry.fireAt + interval
                if next <= now + Self.tolerance { next = now + interval }
                timers[id]?.fireAt = next
            } else {
                timers[id] = nil
            }
            entry.action()
        }
        guard !frameTasks.isEmpty, now + Self.tolerance >= lastFrame + Self.frameInterval else { return }
        lastFrame = now
        let due = frameTasks
        for task in due where frameTasks.contains(where: { $0.id == task.id }) {
            if !task.step(now) {
                frameTasks.removeAll { $0.id == task.id }
            }
        }
    }

    /// Schedules `action` once after `delay` seconds, or every `interval` seconds if given.
    @discardableResult
    public func schedule(after delay: Double, repeating interval: Double? = nil,
                         _ action: @escaping () -> Void) -> ScheduledTimer {
        precondition(interval.map { $0 > 0 } ?? true, "a repeating interval must be positive")
        nextID += 1
        timers[nextID] = TimerEntry(fireAt: now + max(0, delay), interval: interval, action: action)
        return ScheduledTimer(id: nextID, scheduler: self)
    }

    /// Adds a task stepped once per frame with the frame time; it stops when it returns false.
    @discardableResult
    func addFrameTask(_ step: @escaping (Double) -> Bool) -> Int {
        if frameTasks.isEmpty { lastFrame = now }
        nextID += 1
        frameTasks.append((nextID, step))
        return nextID
    }

    func removeFrameTask(_ id: Int) {
        frameTasks.removeAll { $0.id == id }
    }

    func invalidateTimer(_ id: Int) {
        timers[id] = nil
    }

    func isTimerScheduled(_ id: Int) -> Bool {
        timers[id] != nil
    }
}
