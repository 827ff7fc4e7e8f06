import Platform
import UI

/// The kiosk session's one timer, armed at its next event. It is an event-loop timer, not a UI
/// one: the window counts as settled while the slideshow merely waits for its next photo. On a
/// virtual clock (a fast replay) it is a UI timer, because only the window's deadlines move that
/// clock.
final class SessionTimer {
    private let host: ScreenHost
    private enum Armed {
        case loop(EventLoop.TimerID)
        case ui(ScheduledTimer)
    }
    private var armed: Armed?
    /// When it fires next (monotonic seconds); nil when none is armed.
    private(set) var deadline: Double?

    init(host: ScreenHost) {
        self.host = host
    }

    /// Replaces the armed timer, if any, with one that runs `fire` after `delay` seconds.
    func arm(after delay: Double, now: Double, fire: @escaping () -> Void) {
        cancel()
        deadline = now + delay
        let run = { [weak self] in
            self?.armed = nil
            fire()
        }
        armed = host.isOnVirtualClock
            ? .ui(host.window.scheduler.schedule(after: delay, run))
            : .loop(host.loop.addTimer(after: delay, run))
    }

    func cancel() {
        switch armed {
        case .loop(let id): host.loop.cancelTimer(id)
        case .ui(let scheduled): scheduled.invalidate()
        case nil: break
        }
        armed = nil
        deadline = nil
    }
}
