import Graphics
import Imaging
import PhotoKioskApp
import Testing

@Suite struct KioskSlideshowTests {
    let photos: [RawPath] = (1...7).map { "/p/\($0).jpg" }

    func run(_ s: inout SlideshowSequencer, _ n: Int) -> [RawPath] {
        (0..<n).map { _ in s.advance() ?? "-" }
    }

    // MARK: Sequencer

    @Test func sequentialFollowsTheLibraryAndWraps() {
        var s = SlideshowSequencer(photos: ["a", "b", "c"], order: .sequential, seed: 1)
        #expect(run(&s, 5) == ["a", "b", "c", "a", "b"])
        var resumed = SlideshowSequencer(photos: ["a", "b", "c"], order: .sequential, seed: 1, current: "b")
        #expect(resumed.advance() == "c")
    }

    @Test func emptyLibraryShowsNothing() {
        var s = SlideshowSequencer(photos: [], order: .shuffle, seed: 1)
        #expect(s.advance() == nil)
        s.update(photos: ["x"])
        #expect(s.advance() == "x")
        #expect(s.advance() == "x")
    }

    @Test(arguments: [1, 2, 3, 42, 1234] as [UInt64])
    func shuffleShowsEveryPhotoOnceBeforeRepeating(seed: UInt64) {
        var s = SlideshowSequencer(photos: photos, order: .shuffle, seed: seed)
        var previous: RawPath?
        for _ in 0..<4 {
            let round = run(&s, photos.count)
            #expect(Set(round) == Set(photos), "a round must cover every photo")
            #expect(round.first != previous, "no photo twice in a row across rounds")
            previous = round.last
        }
    }

    @Test func shuffleIsSeeded() {
        var a = SlideshowSequencer(photos: photos, order: .shuffle, seed: 9)
        var b = SlideshowSequencer(photos: photos, order: .shuffle, seed: 9)
        let first = run(&a, 14)
        #expect(first == run(&b, 14))
        let others = (10..<20).map { seed -> [RawPath] in
            var c = SlideshowSequencer(photos: photos, order: .shuffle, seed: UInt64(seed))
            return run(&c, 7)
        }
        #expect(others.contains { $0 != Array(first.prefix(7)) })
        #expect(others.contains { $0 != photos }, "shuffle must not be library order")
    }

    @Test func shuffleLetsNewPhotosJoinAndSkipsRemovedOnes() {
        var s = SlideshowSequencer(photos: photos, order: .shuffle, seed: 5)
        let shown = run(&s, 3)
        let removed = photos.filter { !shown.contains($0) }.prefix(2)
        var library = photos.filter { !removed.contains($0) }
        library += ["/p/new1.jpg", "/p/new2.jpg"]
        s.update(photos: library)
        // The rest of this round: every not-yet-shown photo still there, the new ones included.
        let rest = run(&s, library.count - 3)
        #expect(Set(rest) == Set(library).subtracting(shown))
        #expect(rest.allSatisfy { !removed.contains($0) })
        #expect(rest.contains("/p/new1.jpg") && rest.contains("/p/new2.jpg"))
        // Next round covers the new library exactly.
        #expect(Set(run(&s, library.count)) == Set(library))
    }

    @Test func sequentialSkipsRemovedAndIncludesAddedPhotos() {
        var s = SlideshowSequencer(photos: ["a", "b", "c", "d"], order: .sequential, seed: 1)
        #expect(run(&s, 2) == ["a", "b"])
        // The photo on screen (b) and the next (c) are deleted; e is added after d.
        s.update(photos: ["a", "d", "e"])
        #expect(s.current == "b")
        #expect(run(&s, 4) == ["d", "e", "a", "d"])
    }

    @Test func sequentialSurvivesTwoRemovalsInARow() {
        var s = SlideshowSequencer(photos: ["a", "b", "c", "d", "e"], order: .sequential, seed: 1)
        #expect(run(&s, 2) == ["a", "b"])
        s.update(photos: ["a", "c", "d", "e"])  // b (on screen) removed: c is next
        s.update(photos: ["a", "d", "e"])       // then c too: d is next
        #expect(run(&s, 3) == ["d", "e", "a"])
    }

    @Test func sequentialRemovalOfTheLastPhotoWrapsToTheFirst() {
        var s = SlideshowSequencer(photos: ["a", "b", "c"], order: .sequential, seed: 1)
        #expect(run(&s, 3) == ["a", "b", "c"])
        s.update(photos: ["a", "b"])
        #expect(s.advance() == "a")
    }

    // MARK: Idle

    @Test func idleDeadlineFollowsTheLastTouch() {
        var idle = IdleTracker(timeout: 300, now: 1000)
        #expect(idle.deadline == 1300)
        #expect(!idle.hasElapsed(at: 1299.9))
        #expect(idle.hasElapsed(at: 1300))
        idle.touchBegan(at: 1200)
        #expect(idle.deadline == nil, "a finger held down is not idle")
        #expect(!idle.hasElapsed(at: 5000))
        idle.touchEnded(at: 1210)
        #expect(idle.deadline == 1510)
        // A late-delivered older event does not move the deadline back.
        idle.noteActivity(at: 1100)
        #expect(idle.deadline == 1510)
    }

    @Test func multiTouchIsIdleOnlyWhenEveryFingerLifted() {
        var idle = IdleTracker(timeout: 10, now: 0)
        idle.touchBegan(at: 1)
        idle.touchBegan(at: 2)
        idle.touchEnded(at: 3)
        #expect(idle.deadline == nil)
        idle.touchEnded(at: 4)
        #expect(idle.deadline == 14)
    }

    @Test func zeroTimeoutStartsInSlideshowThenWaitsAMinute() {
        var idle = IdleTracker(timeout: 0, now: 50)
        #expect(idle.startsInSlideshow)
        idle.touchBegan(at: 60)
        idle.touchEnded(at: 61)
        #expect(idle.deadline == 61 + IdleTracker.minimumInteractiveTimeout)
    }

    // MARK: Cross-fade

    @Test func crossfadeProgress() {
        let f = Crossfade(start: 10, duration: 2)
        #expect(f.progress(at: 9) == 0)
        #expect(f.progress(at: 10) == 0)
        #expect(f.progress(at: 11) == 0.5)
        #expect(f.progress(at: 12) == 1)
        #expect(f.progress(at: 20) == 1)
        #expect(f.fraction(at: 10.5) == 0.25)
        #expect(f.progress(at: 10.5) < 0.25, "eased: slow start")
        #expect(f.progress(at: 11.5) > 0.75, "eased: slow end")
        var last = -1.0
        for i in 0...100 {
            let p = f.progress(at: 10 + Double(i) * 0.02)
            #expect(p >= last)
            last = p
        }
        #expect(!f.isFinished(at: 11.99))
        #expect(f.isFinished(at: 12))
        let cut = Crossfade(start: 5, duration: 0)
        #expect(cut.progress(at: 4.9) == 0)
        #expect(cut.progress(at: 5) == 1)
    }

    // MARK: State and controller

    @Test func touchStopsTheSlideshowAndReturnsWhereThePersonWas() {
        var state = SlideshowState.browsing(.grid(scrollOffset: 0))
        state.navigate(to: .album(index: 2))
        #expect(state.touch() == nil)
        state.start()
        #expect(state.isRunning)
        state.navigate(to: .photo(path: "/ignored"))
        #expect(state.touch() == .album(index: 2))
        #expect(state == .browsing(.album(index: 2)))
    }

    func settings(_ change: (inout KioskConfig.Slideshow) -> Void = { _ in }) -> KioskConfig.Slideshow {
        var s = KioskConfig.Slideshow()
        s.idleTimeout = 60
        s.interval = 10
        s.transitionDuration = 2
        change(&s)
        return s
    }

    @Test func controllerRunsOnItsDeadlines() {
        var c = SlideshowController(settings: settings(), photos: ["a", "b", "c"], seed: 1,
                                    screen: .grid(scrollOffset: 120), now: 0)
        #expect(c.nextDeadline == 60)
        let r1 = c.tick(at: 59)
        #expect(!r1)
        #expect(c.frame(at: 59) == nil)
        let r2 = c.tick(at: 60)
        #expect(r2)
        #expect(c.state == .running(returnTo: .grid(scrollOffset: 120)))
        #expect(c.frame(at: 60) == .init(photo: "a", previous: nil, opacity: 1))
        #expect(c.nextDeadline == 70)
        let r3 = c.tick(at: 69)
        #expect(!r3)
        let r4 = c.tick(at: 70)
        #expect(r4)
        #expect(c.isAnimating(at: 71))
        #expect(c.frame(at: 71) == .init(photo: "b", previous: "a", opacity: 0.5))
        #expect(!c.isAnimating(at: 72))
        #expect(c.frame(at: 72) == .init(photo: "b", previous: nil, opacity: 1))
        #expect(c.nextDeadline == 80)

        // A touch mid-fade stops it, gives the screen back, and the idle wait starts again.
        let r5 = c.touchBegan(at: 81)
        #expect(r5 == .grid(scrollOffset: 120))
        #expect(c.frame(at: 81) == nil)
        #expect(c.nextDeadline == nil)
        let r6 = c.touchBegan(at: 82)
        #expect(r6 == nil, "only the first touch is swallowed")
        c.touchEnded(at: 83)
        c.touchEnded(at: 84)
        #expect(c.nextDeadline == 144)
        c.navigate(to: .album(index: 1))
        let r7 = c.tick(at: 144)
        #expect(r7)
        // It continues after the last photo shown.
        #expect(c.frame(at: 144)?.photo == "c")
        let r8 = c.touchBegan(at: 150)
        #expect(r8 == .album(index: 1))
    }

    @Test func controllerWithoutTransitionCutsAndFollowsLibraryChanges() {
        var c = SlideshowController(settings: settings { $0.transition = .none; $0.idleTimeout = 0 },
                                    photos: ["a", "b"], seed: 1, screen: .grid(scrollOffset: 0), now: 0)
        #expect(c.state.isRunning, "idle_timeout 0 starts in the slideshow")
        #expect(c.frame(at: 0)?.photo == "a")
        c.update(photos: ["a", "z"])
        c.tick(at: 10)
        #expect(c.frame(at: 10.5) == .init(photo: "z", previous: nil, opacity: 1))
        #expect(!c.isAnimating(at: 10.5))
    }

    @Test func controllerResumesOnThePhotoItShowedBeforeTheRestart() {
        let c = SlideshowController(settings: settings { $0.idleTimeout = 0 }, photos: ["a", "b", "c"], seed: 1,
                                    screen: .grid(scrollOffset: 0), resumePhoto: "b", now: 0)
        #expect(c.frame(at: 0)?.photo == "b")
        let gone = SlideshowController(settings: settings { $0.idleTimeout = 0 }, photos: ["a", "c"], seed: 1,
                                       screen: .grid(scrollOffset: 0), resumePhoto: "b", now: 0)
        #expect(gone.frame(at: 0)?.photo == "a")
    }

    // MARK: Layout

    @Test func portraitPhotoOnLandscapeScreenGetsABlurredFill() {
        let screen = Rect(x: 0, y: 0, width: 1920, height: 1080)
        let layout = SlideLayout(photoSize: Size(width: 3000, height: 4000), screen: screen,
                                 fill: .blur, background: .black)
        #expect(layout.photo == Rect(x: 555, y: 0, width: 810, height: 1080))
        #expect(layout.background == .blurredPhoto(Rect(x: 0, y: -740, width: 1920, height: 2560)))
        let solid = SlideLayout(photoSize: Size(width: 3000, height: 4000), screen: screen,
                                fill: .solid, background: .darkGray)
        #expect(solid.background == .solid(.darkGray))
        #expect(SlideLayout(photoSize: Size(width: 3000, height: 4000), screen: screen,
                            fill: .none, background: .white).background == .solid(.black))
    }

    @Test func photoThatFillsTheScreenNeedsNoBlur() {
        let screen = Rect(x: 0, y: 0, width: 1920, height: 1080)
        let layout = SlideLayout(photoSize: Size(width: 3840, height: 2160), screen: screen,
                                 fill: .blur, background: .gray)
        #expect(layout.photo == screen)
        #expect(layout.background == .solid(.gray))
        // A landscape photo on a portrait (rotated) screen gets bars above and below.
        let tall = Rect(x: 0, y: 0, width: 800, height: 1280)
        let l2 = SlideLayout(photoSize: Size(width: 4000, height: 3000), screen: tall, fill: .blur, background: .black)
        #expect(l2.photo == Rect(x: 0, y: 340, width: 800, height: 600))
        #expect(l2.background == .blurredPhoto(Rect(x: -453.33333333333337, y: 0, width: 1706.6666666666667, height: 1280)))
    }

    @Test func aSlideshowStartedBeforeTheScanShowsTheFirstPhotoWhenItArrives() {
        var c = SlideshowController(settings: settings { $0.idleTimeout = 0 }, photos: [], seed: 1,
                                    screen: .grid(scrollOffset: 0), now: 0)
        #expect(c.state.isRunning)
        #expect(c.frame(at: 0) == nil)
        let shown = c.update(photos: ["a", "b"], at: 3)
        #expect(shown)
        #expect(c.frame(at: 3) == .init(photo: "a", previous: nil, opacity: 1))
        #expect(c.nextDeadline == 13)
        let changed = c.update(photos: ["a", "b", "c"], at: 4)
        #expect(!changed, "a photo on screen stays")
        var browsing = SlideshowController(settings: settings(), photos: [], seed: 1, screen: .grid(scrollOffset: 0), now: 0)
        let started = browsing.update(photos: ["a"], at: 1)
        #expect(!started)
        #expect(browsing.frame(at: 1) == nil)
    }

    @Test func skipMovesOnAtOnceWithoutAFade() {
        var c = SlideshowController(settings: settings { $0.idleTimeout = 0; $0.order = .sequential }, photos: ["a", "b", "c"],
                                    seed: 1, screen: .grid(scrollOffset: 0), now: 0)
        #expect(c.frame(at: 0)?.photo == "a")
        let moved = c.skip(at: 4)
        #expect(moved)
        #expect(c.frame(at: 4) == .init(photo: "b", previous: nil, opacity: 1))
        #expect(c.nextDeadline == 14)
        _ = c.touchBegan(at: 5)
        let whileBrowsing = c.skip(at: 6)
        #expect(!whileBrowsing)
    }
}
