import Testing
@testable import UI

@Suite struct SchedulerTests {
    @Test func idleSchedulerHasNoDeadline() {
        let clock = ManualClock()
        let scheduler = Scheduler(clock: clock)
        #expect(scheduler.nextDeadline == nil)
        var fired = 0
        let timer = scheduler.schedule(after: 0.5) { fired += 1 }
        #expect(scheduler.nextDeadline == 0.5)
        clock.now = 0.4
        scheduler.advance(to: 0.4)
        #expect(fired == 0)
        clock.now = 0.5
        scheduler.advance(to: 0.5)
        #expect(fired == 1)
        #expect(!timer.isValid)
        #expect(scheduler.nextDeadline == nil)
    }

    @Test func repeatingTimerRunsEverySixtiethUntilInvalidated() {
        let clock = ManualClock(now: 1)
        let scheduler = Scheduler(clock: clock)
        var ticks = 0
        let timer = scheduler.schedule(after: 1.0 / 60, repeating: 1.0 / 60) { ticks += 1 }
        for _ in 0..<30 {
            clock.now = scheduler.nextDeadline!
            scheduler.advance(to: clock.now)
        }
        #expect(ticks == 30)
        #expect(abs(clock.now - 1.5) < 1e-9)
        timer.invalidate()
        #expect(scheduler.nextDeadline == nil)
    }

    @Test func lateLoopSkipsMissedTicksInsteadOfBursting() {
        let clock = ManualClock()
        let scheduler = Scheduler(clock: clock)
        var ticks = 0
        scheduler.schedule(after: 0.1, repeating: 0.1) { ticks += 1 }
        clock.now = 1.0
        scheduler.advance(to: 1.0)
        #expect(ticks == 1)
        #expect(abs(scheduler.nextDeadline! - 1.1) < 1e-9)
    }

    @Test func animationTicksOncePerFrameAndEndsExactly() {
        let clock = ManualClock()
        let scheduler = Scheduler(clock: clock)
        var values: [Double] = []
        var completed: Bool?
        Animator(scheduler: scheduler).animate(duration: 0.25, easing: .linear,
                                               update: { values.append($0) }, completion: { completed = $0 })
        #expect(abs(scheduler.nextDeadline! - 1.0 / 60) < 1e-12)
        // Calling in twice within one frame steps once.
        clock.now = 1.0 / 60
        scheduler.advance(to: clock.now)
        scheduler.advance(to: clock.now + 0.001)
        #expect(values.count == 1)
        while let deadline = scheduler.nextDeadline {
            clock.now = deadline
            scheduler.advance(to: deadline)
        }
        #expect(values.last == 1)
        #expect(completed == true)
        #expect(values == values.sorted())
        #expect(values.count == 15)
        #expect(scheduler.nextDeadline == nil)
    }

    @Test func cancelledAnimationStopsWithoutJumping() {
        let clock = ManualClock()
        let scheduler = Scheduler(clock: clock)
        var last = 0.0
        var completed: Bool?
        let animation = Animator(scheduler: scheduler).animate(duration: 1, update: { last = $0 }, completion: { completed = $0 })
        clock.now = 0.2
        scheduler.advance(to: 0.2)
        animation.cancel()
        #expect(last > 0 && last < 1)
        #expect(completed == false)
        #expect(scheduler.nextDeadline == nil)
    }

    @Test func springAnimationSettlesOnTarget() {
        let clock = ManualClock()
        let scheduler = Scheduler(clock: clock)
        var values: [Double] = []
        Animator(scheduler: scheduler).animate(spring: .bounce, from: 0, to: 100, update: { values.append($0) })
        while let deadline = scheduler.nextDeadline, clock.now < 5 {
            clock.now = deadline
            scheduler.advance(to: deadline)
        }
        #expect(values.last == 100)
        #expect(values.allSatisfy { $0 <= 100 })
        #expect(clock.now < 1.5)
    }
}
