import Testing
import Graphics
import TestSupport
import UI
@testable import Widgets

/// A provider that records when the grid defers and resumes its loads.
final class DeferralRecordingProvider: ThumbnailProvider {
    var changes: [Bool] = []
    var wantedWhileDeferring = 0
    private var deferring = false

    func thumbnailState(at index: Int, edge: Int) -> ThumbnailState { .loading }
    func updateWantedThumbnails(_ distances: [Int: Double], edge: Int) {
        if deferring { wantedWhileDeferring += 1 }
    }
    func setLoadsDeferred(_ deferred: Bool) {
        deferring = deferred
        changes.append(deferred)
    }
}

@Suite struct FlingLoadDeferralTests {
    /// Offsets at 60 Hz moving at `speed` points per second for `seconds`, from `start`.
    func feed(_ deferral: inout FlingLoadDeferral, speed: Double, seconds: Double, from start: (time: Double, y: Double))
        -> (changed: Bool, end: (time: Double, y: Double))
    {
        var changed = false
        var t = start.time, y = start.y
        for _ in 0..<Int(seconds * 60) {
            t += 1.0 / 60
            y += speed / 60
            if deferral.observe(offset: Point(x: 0, y: y), at: t) { changed = true }
        }
        return (changed, (t, y))
    }

    @Test func defersAboveTheFastSpeedAndResumesOnlyBelowTheSlowOne() {
        var deferral = FlingLoadDeferral(deferAbove: 2500, resumeBelow: 1000)
        var at = (time: 0.0, y: 0.0)
        var step = feed(&deferral, speed: 2000, seconds: 0.3, from: at)
        #expect(!step.changed && !deferral.isDeferring)
        at = step.end
        step = feed(&deferral, speed: 4000, seconds: 0.3, from: at)
        #expect(step.changed && deferral.isDeferring)
        #expect(abs(deferral.speed - 4000) < 1)
        // Between the two thresholds: still a fling.
        step = feed(&deferral, speed: 1500, seconds: 0.3, from: step.end)
        #expect(!step.changed && deferral.isDeferring)
        step = feed(&deferral, speed: -600, seconds: 0.3, from: step.end)
        #expect(step.changed && !deferral.isDeferring)
    }

    @Test func contentHeldStillReadsAsSlowAfterTheTrackerHorizon() {
        var deferral = FlingLoadDeferral()
        let step = feed(&deferral, speed: 5000, seconds: 0.2, from: (0, 0))
        #expect(deferral.isDeferring)
        // The same offset a little later: the finger holds the content.
        let soon = deferral.observe(offset: Point(x: 0, y: step.end.y), at: step.end.time + 0.05)
        #expect(!soon)
        let later = deferral.observe(offset: Point(x: 0, y: step.end.y), at: step.end.time + 0.15)
        #expect(later)
        #expect(!deferral.isDeferring)
    }

    /// A window on a manual clock with a 10,000-photo grid and a scripted upward swipe.
    final class Harness {
        let clock = ManualClock(now: 100)
        let window: Window
        let grid = ThumbnailGridView(frame: Rect(size: Size(width: 1920, height: 1080)))
        let provider = DeferralRecordingProvider()
        let finger: ScriptedFinger

        init(deferral: FlingLoadDeferral?) {
            window = Window(size: Size(width: 1920, height: 1080), clock: clock)
            finger = ScriptedFinger(window: window, clock: clock)
            grid.itemCount = 10_000
            grid.loadDeferral = deferral
            grid.provider = provider
            window.addSubview(grid)
            window.layoutIfNeeded()
        }

        func runUntilRest(limit: Int = 1200) {
            for _ in 0..<limit where grid.isMoving || grid.isDeferringLoads { finger.step(1.0 / 60) }
        }
    }

    @Test func aFlingDefersLoadsAndTheirEndResumesThem() {
        let h = Harness(deferral: FlingLoadDeferral())
        h.finger.swipeUp()
        #expect(h.grid.isMoving)
        h.finger.step(1.0 / 60)
        #expect(h.grid.isDeferringLoads)
        #expect(h.provider.changes == [true])
        let offsetWhenDeferred = h.grid.contentOffset.y
        h.runUntilRest()
        #expect(h.grid.contentOffset.y > offsetWhenDeferred + 1000)
        #expect(!h.grid.isMoving)
        #expect(!h.grid.isDeferringLoads)
        #expect(h.provider.changes == [true, false])
        #expect(h.provider.wantedWhileDeferring > 0)
    }

    @Test func aFingerStoppingTheFlingResumesLoadsWithoutAnotherFrameOfMotion() {
        let h = Harness(deferral: FlingLoadDeferral())
        h.finger.swipeUp()
        h.finger.step(1.0 / 60)
        #expect(h.grid.isDeferringLoads)
        // Touch down stops the fling; the finger stays.
        h.finger.touch(.began, y: 500)
        for _ in 0..<12 { h.finger.step(1.0 / 60) }
        #expect(!h.grid.isMoving)
        #expect(!h.grid.isDeferringLoads)
        #expect(h.provider.changes == [true, false])
    }

    @Test func slowScrollsAndJumpsNeverDefer() {
        let h = Harness(deferral: FlingLoadDeferral())
        // A slow drag: 20 points per frame at 60 Hz = 1,200 points per second.
        h.finger.touch(.began, y: 900)
        var y = 900.0
        for _ in 0..<30 {
            h.finger.step(1.0 / 60)
            y -= 20
            h.finger.touch(.moved, y: y)
        }
        h.finger.step(1.0 / 60)
        h.finger.touch(.ended, y: y)
        h.runUntilRest()
        // A jump of 50,000 points in no time (back from the album).
        h.grid.contentOffset = Point(x: 0, y: 50_000)
        h.window.layoutIfNeeded()
        h.finger.step(1.0 / 60)
        #expect(h.provider.changes.isEmpty)
    }

    @Test func withoutADeferralTheProviderIsNeverTold() {
        let h = Harness(deferral: nil)
        h.finger.swipeUp()
        h.runUntilRest()
        #expect(h.provider.changes.isEmpty)
        #expect(h.provider.wantedWhileDeferring == 0)
    }

    @Test func turningTheDeferralOffOrSwappingTheProviderMidFlingResumesLoads() {
        let h = Harness(deferral: FlingLoadDeferral())
        h.finger.swipeUp()
        h.finger.step(1.0 / 60)
        #expect(h.grid.isDeferringLoads)
        let other = DeferralRecordingProvider()
        h.grid.provider = other
        #expect(h.provider.changes == [true, false])
        #expect(other.changes == [true])
        h.grid.loadDeferral = nil
        #expect(other.changes == [true, false])
        h.runUntilRest()
        #expect(other.changes == [true, false])
    }
}
