import Glibc
import Platform
import SystemPackage
import Testing

/// The wall-clock watch's kernel side. Setting the clock needs CAP_SYS_TIME and would move the
/// test machine's clock, so the change itself is tested in the guest (e2e blank stage: `date -s`
/// under a running kiosk); here, that the alarm is accepted and stays quiet while nobody sets it.
@Suite struct WallClockWatchTests {
    @Test func anAlarmNobodySetsIsQuiet() throws {
        let alarm = try WallClockSetAlarm()
        var poller = pollfd(fd: alarm.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 50) == 0, "not readable while the clock stays")
        #expect(try alarm.acknowledge() == false)
    }

    @Test func theLoopSleepsThroughAnAlarmNobodySets() throws {
        let loop = try EventLoop(signals: [])
        var calls = 0
        let watch = try WallClockWatch(loop: loop) { calls += 1 }
        let before = loop.wakeups
        #expect(try loop.runOnce(timeout: 0.1) == 0)
        #expect(loop.wakeups == before)
        #expect(calls == 0 && watch.changes == 0)
    }
}
