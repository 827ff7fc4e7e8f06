import Imaging
import Logging
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
}
