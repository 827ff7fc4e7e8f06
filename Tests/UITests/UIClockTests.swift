import Testing
import Graphics
import UI

/// Any value that tells the time drives a window: the UI's clock is a one-property protocol
/// (named `UIClock`, so it never shadows the standard library's `Clock`).
private struct FixedClock: UIClock {
    var now: Double { 42 }
}

@Suite struct UIClockTests {
    @Test func aValueTypeClockDrivesAWindow() {
        let window = Window(size: Size(width: 10, height: 10), clock: FixedClock())
        #expect(window.scheduler.now == 42)
        #expect(window.nextDeadline == nil)
    }
}
