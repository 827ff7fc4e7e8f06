@testable import PhotoKioskApp
import Testing

/// The presence rules on the session's clocks (monotonic seconds and local time, passed in): the
/// no-motion timer from the start, motion waking the screen and postponing the slideshow, the
/// schedule winning at night unless motion may wake it, a remote's request over both.
@Suite struct MotionPresenceTests {
    /// Monday 2026-11-23 at `hour:minute`.
    func local(_ hour: Int, _ minute: Int = 0, _ second: Int = 0) -> LocalDateTime {
        LocalDateTime(year: 2026, month: 11, day: 23, hour: hour, minute: minute, second: second)
    }

    func config(wakesDuringSchedule: Bool = false) -> KioskConfig {
        var c = KioskConfig()
        c.slideshow.idleTimeout = 600
        c.slideshow.interval = 30
        c.schedule.periods = [SchedulePeriod(parsing: "daily 22:00-07:00")!]
        c.schedule.wakeMinutes = 5
        c.presence.chip = "gpiochip0"
        c.presence.timeout = 120
        c.presence.wakesDuringSchedule = wakesDuringSchedule
        return c
    }

    /// A session at `hour` with the sensor attached at monotonic 0.
    func session(at hour: Int, _ c: KioskConfig) -> KioskSession {
        var s = KioskSession(config: c, photos: ["a", "b"], seed: 1, resume: ResumeState(), now: 0, local: local(hour))
        _ = s.sensePresence(c.presence, now: 0, local: local(hour))
        return s
    }

    @Test func theNoMotionTimerStartsAtTheStart() {
        var s = session(at: 12, config())
        #expect(s.screenOn)
        #expect(s.secondsUntilNextEvent(now: 0, local: local(12)) == 120, "the timeout, before the idle slideshow")
        #expect(s.tick(now: 119, local: local(12, 1, 59)) == .init(screenOn: true, screenChanged: false, slideshowChanged: false))
        // Nobody ever moved: dark after the timeout counted from the start.
        #expect(s.tick(now: 120, local: local(12, 2)) == .init(screenOn: false, screenChanged: true, slideshowChanged: false))
        #expect(s.secondsUntilNextEvent(now: 120, local: local(12, 2)) == Double(10 * 3600 - 120),
                "nothing until motion but the schedule's next change")
    }

    @Test func motionWakesTheScreenAndTheTimerCountsFromItsEnd() {
        var s = session(at: 12, config())
        _ = s.tick(now: 200, local: local(12, 3, 20))
        #expect(!s.screenOn)
        let wake = s.motion(active: true, now: 300, local: local(12, 5))
        #expect(wake == .init(screenOn: true, screenChanged: true, slideshowChanged: false))
        #expect(s.presence?.motionNow == true)
        // While the sensor sees motion, no absence deadline: only the idle slideshow counts.
        #expect(s.secondsUntilNextEvent(now: 300, local: local(12, 5)) == 600)
        _ = s.motion(active: false, now: 310, local: local(12, 5, 10))
        #expect(s.secondsUntilNextEvent(now: 310, local: local(12, 5, 10)) == 120)
        #expect(s.tick(now: 429, local: local(12, 7, 9)).screenOn)
        #expect(s.tick(now: 430, local: local(12, 7, 10)) == .init(screenOn: false, screenChanged: true, slideshowChanged: false))
    }

    @Test func motionCountsAsActivityForTheIdleSlideshowButDoesNotStopIt() {
        var c = config()
        c.presence.timeout = 3600
        var s = session(at: 12, c)
        _ = s.motion(active: true, now: 500, local: local(12, 8, 20))
        _ = s.motion(active: false, now: 505, local: local(12, 8, 25))
        // The idle timeout (600 s) counts from the motion, not from the start.
        #expect(!s.tick(now: 600, local: local(12, 10)).slideshowChanged)
        #expect(s.secondsUntilNextEvent(now: 600, local: local(12, 10)) == 505)
        #expect(s.tick(now: 1105, local: local(12, 18, 25)).slideshowChanged)
        #expect(s.slideshow.state.isRunning)
        _ = s.motion(active: true, now: 1110, local: local(12, 18, 30))
        #expect(s.slideshow.state.isRunning, "someone walking past does not end the slideshow")
    }

    @Test func aTouchWakesAnEmptyRoomsScreenAndCountsAsPresence() {
        var s = session(at: 12, config())
        _ = s.tick(now: 120, local: local(12, 2))
        #expect(!s.screenOn)
        #expect(s.touchBegan(now: 150, local: local(12, 2, 30)) == .wokeScreen(returnTo: nil))
        s.touchEnded(now: 151)
        #expect(s.screenOn)
        #expect(s.tick(now: 269, local: local(12, 4, 29)).screenOn, "present for the timeout after the touch")
        #expect(!s.tick(now: 271, local: local(12, 4, 31)).screenOn)
    }

    @Test func theScheduleWinsAtNight() {
        var s = session(at: 23, config())
        #expect(!s.screenOn)
        let motion = s.motion(active: true, now: 10, local: local(23, 0, 10))
        #expect(motion == .init(screenOn: false, screenChanged: false, slideshowChanged: false))
        // A touch still wakes it for wake_minutes, and the presence timer then applies too.
        #expect(s.touchBegan(now: 20, local: local(23, 0, 20)) == .wokeScreen(returnTo: nil))
        s.touchEnded(now: 21)
        _ = s.motion(active: false, now: 30, local: local(23, 0, 30))
        #expect(s.tick(now: 149, local: local(23, 2, 29)).screenOn)
        #expect(!s.tick(now: 151, local: local(23, 2, 31)).screenOn, "nobody there: dark before the 5 wake minutes end")
    }

    @Test func motionWakesAtNightWhenConfigured() {
        var s = session(at: 23, config(wakesDuringSchedule: true))
        // The start counts as presence: on for the timeout, then dark.
        #expect(s.screenOn)
        #expect(!s.tick(now: 120, local: local(23, 2)).screenOn)
        #expect(s.motion(active: true, now: 200, local: local(23, 3, 20)).screenChanged)
        #expect(s.screenOn)
        _ = s.motion(active: false, now: 210, local: local(23, 3, 30))
        #expect(!s.tick(now: 330, local: local(23, 5, 30)).screenOn)
    }

    @Test func theMorningWaitsForSomeoneToComeIn() {
        var s = session(at: 6, config())
        _ = s.tick(now: 0, local: local(6))
        #expect(!s.screenOn)
        // 07:00: the schedule turns on, but nobody has moved for an hour.
        #expect(!s.tick(now: 3600, local: local(7)).screenOn)
        #expect(s.motion(active: true, now: 3700, local: local(7, 1, 40)).screenOn)
    }

    @Test func aRemotesRequestWinsOverPresence() {
        var s = session(at: 12, config())
        _ = s.tick(now: 120, local: local(12, 2))
        #expect(!s.screenOn)
        #expect(s.requestScreen(on: true, now: 130, local: local(12, 2, 10)).screenOn)
        #expect(s.tick(now: 1000, local: local(12, 16, 40)).screenOn, "on until the schedule's next change")
    }

    @Test func withoutASensorNothingChanges() {
        var s = KioskSession(config: config(), photos: ["a"], seed: 1, resume: ResumeState(), now: 0, local: local(12))
        #expect(s.presence == nil)
        #expect(s.secondsUntilNextEvent(now: 0, local: local(12)) == 600)
        #expect(s.motion(active: false, now: 5000, local: local(13)).screenOn)
        #expect(s.tick(now: 9000, local: local(14)).screenOn)
    }
}
