@testable import PhotoKioskApp
import Testing

@Suite struct KioskSessionTests {
    /// Monday 2026-11-23 at `hour:minute`, and the matching monotonic seconds (0 at 20:00).
    func local(_ hour: Int, _ minute: Int = 0, day: Int = 23) -> LocalDateTime {
        LocalDateTime(year: 2026, month: 11, day: day, hour: hour, minute: minute)
    }

    var config: KioskConfig {
        var c = KioskConfig()
        c.slideshow.idleTimeout = 600
        c.slideshow.interval = 30
        c.schedule.periods = [SchedulePeriod(parsing: "daily 22:00-07:00")!]
        c.schedule.wakeMinutes = 5
        return c
    }

    @Test func eveningIdleStartsTheSlideshowAndATouchReturns() {
        var s = KioskSession(config: config, photos: ["a", "b"], seed: 1,
                             resume: ResumeState(screen: .album(index: 4)), now: 0, local: local(20))
        #expect(s.screenOn)
        #expect(s.secondsUntilNextEvent(now: 0, local: local(20)) == 600)
        let u = s.tick(now: 600, local: local(20, 10))
        #expect(u == .init(screenOn: true, screenChanged: false, slideshowChanged: true))
        #expect(s.resumeState == ResumeState(screen: .album(index: 4), photo: "a", inSlideshow: true))
        #expect(s.secondsUntilNextEvent(now: 600, local: local(20, 10)) == 30)
        let outcome = s.touchBegan(now: 610, local: local(20, 10))
        #expect(outcome == .stoppedSlideshow(returnTo: .album(index: 4)))
        s.touchEnded(now: 611)
        let second = s.touchBegan(now: 612, local: local(20, 10))
        #expect(second == .deliver)
    }

    @Test func nightBlanksPausesTheSlideshowAndATouchWakesBriefly() {
        var s = KioskSession(config: config, photos: ["a", "b"], seed: 1,
                             resume: ResumeState(), now: 0, local: local(21, 50))
        // The schedule change (22:00) comes before the idle timeout (22:00 too, 600 s): either way.
        #expect(s.secondsUntilNextEvent(now: 0, local: local(21, 50)) == 600)
        let night = s.tick(now: 600, local: local(22))
        #expect(night == .init(screenOn: false, screenChanged: true, slideshowChanged: false))
        #expect(!s.slideshow.state.isRunning, "no slideshow in the dark")
        // While dark only the schedule wakes it: next event at 07:00.
        #expect(s.secondsUntilNextEvent(now: 700, local: local(22, 1)) == Double(8 * 3600 + 59 * 60))
        let wake = s.touchBegan(now: 4000, local: local(23))
        #expect(wake == .wokeScreen(returnTo: nil))
        s.touchEnded(now: 4001)
        #expect(s.screenOn)
        #expect(s.secondsUntilNextEvent(now: 4001, local: local(23)) == 300)
        let blank = s.tick(now: 4300, local: local(23, 5))
        #expect(blank == .init(screenOn: false, screenChanged: true, slideshowChanged: false))
        // Morning: the screen comes on and, long idle, the slideshow starts at once.
        let morning = s.tick(now: 40_000, local: local(7, day: 24))
        #expect(morning == .init(screenOn: true, screenChanged: true, slideshowChanged: true))
        #expect(s.slideshow.state.isRunning)
    }

    @Test func touchesOnADarkScreenAreIgnoredWhenWakingIsOff() {
        var c = config
        c.schedule.wakeMinutes = 0
        var s = KioskSession(config: c, photos: ["a"], seed: 1, resume: ResumeState(), now: 0, local: local(23))
        #expect(!s.screenOn)
        let outcome = s.touchBegan(now: 5, local: local(23))
        #expect(outcome == .ignored)
    }

    @Test func restartInTheSlideshowResumesOnTheSamePhoto() {
        let s = KioskSession(config: config, photos: ["a", "b", "c"], seed: 1,
                             resume: ResumeState(screen: .grid(scrollOffset: 80), photo: "b", inSlideshow: true),
                             now: 0, local: local(12))
        #expect(s.slideshow.state == .running(returnTo: .grid(scrollOffset: 80)))
        #expect(s.slideshow.frame(at: 0)?.photo == "b")
    }

    @Test func skipAndLateLibraryOnlyActWhileTheScreenIsOn() {
        var c = config
        c.slideshow.idleTimeout = 0
        var day = KioskSession(config: c, photos: [], seed: 1, resume: ResumeState(), now: 0, local: local(12))
        let first = day.update(photos: ["a", "b", "c"], now: 1)
        #expect(first)
        #expect(day.slideshow.frame(at: 1)?.photo == "a")
        let skipped = day.skipPhoto(now: 2)
        #expect(skipped)
        #expect(day.slideshow.frame(at: 2)?.photo == "b")
        var night = KioskSession(config: c, photos: ["a", "b"], seed: 1, resume: ResumeState(), now: 0, local: local(23))
        #expect(!night.screenOn)
        let before = night.slideshow.sequencer.current
        let nightSkip = night.skipPhoto(now: 5)
        #expect(!nightSkip)
        #expect(night.slideshow.sequencer.current == before)
    }
}
