import Platform
import UI

/// The UI's clock on a real run: CLOCK_MONOTONIC through the event loop, the same time base as
/// libinput's touch timestamps. Tests and replays use `ManualClock` instead.
final class EventLoopClock: UIClock {
    private let loop: EventLoop

    init(loop: EventLoop) {
        self.loop = loop
    }

    var now: Double { loop.now }
}
