import Basics
import Imaging
import Logging
import SystemAccess
@testable import PhotoKioskApp
import TestSupport
import Testing

/// The resume state reaches the SD card only when it changes, and a running slideshow's moving
/// position at a bounded rate (issue 33 item 3: a steady slideshow writes nothing).
@Suite("ResumeSaver")
struct ResumeSaverTests {
    func slideshow(_ name: String) -> ResumeState {
        ResumeState(screen: .album(index: 0), photo: RawPath("/photos/\(name).jpg"), inSlideshow: true)
    }

    @Test("a slideshow's next photo is not written until the interval passed; a forced save is")
    func slideshowPositionAtABoundedRate() throws {
        let scratch = ScratchDirectory()
        let store = ResumeStore(path: scratch.newFolder("state") + "/resume")
        let saver = ResumeSaver(store: store, lastSaved: nil, logger: Logger(label: "test"))
        saver.save(slideshow("a"), now: 0, force: false)
        #expect(store.load().state == slideshow("a"))
        for (t, name) in [(10.0, "b"), (600, "c"), (3500, "d")] {
            saver.save(slideshow(name), now: t, force: false)
            #expect(store.load().state == slideshow("a"), "written after \(t) s")
        }
        saver.save(slideshow("e"), now: ResumeSaver.slideshowSaveInterval + 1, force: false)
        #expect(store.load().state == slideshow("e"))
        saver.save(slideshow("f"), now: ResumeSaver.slideshowSaveInterval + 2, force: true)
        #expect(store.load().state == slideshow("f"))
    }

    @Test("an unchanged state is never written again; a changed screen is written at once")
    func onlyChanges() throws {
        let scratch = ScratchDirectory()
        let path = scratch.newFolder("state") + "/resume"
        let store = ResumeStore(path: path)
        let saver = ResumeSaver(store: store, lastSaved: slideshow("a"), logger: Logger(label: "test"))
        saver.save(slideshow("a"), now: 0, force: true)
        #expect(store.load().state == ResumeState())          // nothing written: the file is not there
        let grid = ResumeState(screen: .grid(scrollOffset: 40))
        saver.save(grid, now: 1, force: false)
        #expect(store.load().state == grid)
    }

    @Test("a failing card: the old state stays, retries are spaced 5 s, 10 s, … (not at every slide), and a working write clears the status")
    func failingStorageIsRetriedWithBackoff() throws {
        let scratch = ScratchDirectory()
        let store = ResumeStore(path: scratch.newFolder("state") + "/resume")
        let capture = LogCapture()
        let saver = ResumeSaver(store: store, lastSaved: nil, logger: capture.logger)
        let health = StorageHealth()
        saver.health = health
        let grid = ResumeState(screen: .grid(scrollOffset: 0))
        saver.save(grid, now: 0, force: false)
        #expect(store.load().state == grid)

        let attempts = Locked(0)
        let failing = Locked(true)
        saver.failing = { step in
            guard step == .syncFile else { return false }
            attempts.withLock { $0 += 1 }
            return failing.withLock { $0 }
        }
        // The screen changes every second for 30 s: without the back-off, 30 writes to a dead card.
        for t in 1...30 {
            saver.save(ResumeState(screen: .grid(scrollOffset: Double(t))), now: Double(t), force: false)
            #expect(store.load().state == grid, "the stored state is kept while writes fail")
        }
        // Tries at 1, then 6 (5 s later), 16 (10 s), and not again before 36 (20 s).
        #expect(attempts.withLock { $0 } == 3)
        #expect(health.failing?.failedWrites == 3)
        #expect(capture.warnings.isEmpty, "EIO is StorageHealth's to say, once: \(capture.warnings)")

        failing.withLock { $0 = false }
        let latest = ResumeState(screen: .grid(scrollOffset: 99))
        saver.save(latest, now: 36, force: false)
        #expect(store.load().state == latest)
        #expect(health.failing == nil, "a working write clears the status")
    }
}
