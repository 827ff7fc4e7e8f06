import Testing
import Graphics
import UI

/// The app defines its own monotonic clock; `Clock` must resolve to UI's protocol, not the
/// standard library's, in a module that imports UI.
private struct FixedClock: Clock {
    var now: Double { 42 }
}

@Suite struct ClockNameTests {
    @Test func aValueTypeClockDrivesAWindow() {
        let window = Window(size: Size(width: 10, height: 10), clock: FixedClock())
        #expect(window.scheduler.now == 42)
        #expect(window.nextDeadline == nil)
    }
}
