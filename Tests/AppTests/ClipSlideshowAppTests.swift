import TestSupport
import Testing
import Glibc
import Graphics
import Imaging
import Platform
import UI
@testable import PhotoKioskApp
import Widgets

/// Issue 35 item 1: the slideshow plays a clip muted once its slide is in, for its length but at
/// most `slideshow.clip_seconds`, then moves on; `clip_seconds = 0` shows clips as stills.
@Suite("Clips in the slideshow", .serialized,
       .enabled(if: ClipFixture.canRun, "GStreamer's tools or plugins are missing (scripts/install-deps.sh installs them)"))
struct ClipSlideshowAppTests {
    let scratch = ScratchDirectory()

    /// A red photo, a 3 s clip of a moving ball, a blue photo, in that (name) order.
    func makeFolder() throws -> String {
        let folder = scratch.newFolder("library")
        for (name, color) in [("a-photo", Color.red), ("c-photo", Color.blue)] {
            let photo = Bitmap(width: 320, height: 200)
            Canvas(target: photo).clear(color)
            try FileReader.write(try JPEGEncoder.encode(photo, options: .init(quality: 95)), to: folder + "/\(name).jpg")
        }
        _ = try ClipFixture.write(pattern: "ball", width: 320, height: 180, frames: 90, as: .webm, to: folder, name: "b-clip")
        return folder
    }

    func makeApp(folder: String, clipSeconds: Double) throws -> (KioskApp, HeadlessDisplay) {
        var config = KioskConfig()
        config.library.thumbnailSize = 190
        config.slideshow.idleTimeout = 0.3
        config.slideshow.interval = 1.5
        config.slideshow.transitionDuration = 0.1
        config.slideshow.clipSeconds = clipSeconds
        let display = HeadlessDisplay(width: 800, height: 600)
        let app = KioskApp(config: config, folders: [folder], display: display, loop: try EventLoop(signals: []),
                           thumbnailCacheDirectory: nil, logger: .init(label: "test"))
        try app.start()
        app.startKioskSession(resume: nil, seed: 1)
        return (app, display)
    }

    func shows(_ app: KioskApp, _ name: String) -> Bool {
        app.sessionDriver?.slideshowView?.photo?.description.hasSuffix(name) == true
    }

    @Test("a 3 s clip plays in its slide for clip_seconds (2 s), the ball moving, then the next photo comes")
    func clipPlaysForItsLimit() throws {
        let (app, display) = try makeApp(folder: try makeFolder(), clipSeconds: 2)
        try app.runLoop(for: 30) { shows(app, "b-clip.webm") }
        #expect(shows(app, "b-clip.webm"), "the slideshow never reached the clip")
        let clipShown = app.host.loop.now
        let view = try #require(app.sessionDriver?.slideshowView)
        try app.runLoop(for: 20) { view.isShowingMotion }
        #expect(view.isShowingMotion, "no frame of the clip came")
        #expect(app.clips.item?.path.description.hasSuffix("b-clip.webm") == true)
        // Its length (3 s) is known: it stays the transition and clip_seconds, not the 1.5 s interval.
        try app.runLoop(for: 5) { app.sessionDriver?.session.slideshow.slideSeconds == 2.1 }
        #expect(app.sessionDriver?.session.slideshow.slideSeconds == 2.1)
        // 320x180 fitted to 800x600: 800x450 between bars; the ball moves in there.
        var columns: Set<[UInt32]> = []
        try app.runLoop(for: 0.6) {
            columns.insert(stride(from: 80, to: 525, by: 10).flatMap { y in stride(from: 5, to: 800, by: 10).map { display.frameBuffer.pixel(x: $0, y: y) } })
            return false
        }
        #expect(columns.count >= 2, "the clip's picture did not change while it played")
        try app.runLoop(for: 20) { shows(app, "c-photo.jpg") }
        let elapsed = app.host.loop.now - clipShown
        #expect(shows(app, "c-photo.jpg"))
        #expect(elapsed >= 2.0 && elapsed < 10, "the clip's slide stayed \(elapsed) s (want 2.1 s, not the 1.5 s interval)")
        #expect(app.clips.item == nil, "the clip still plays after its slide went")
        #expect(view.isShowingMotion == false)
    }

    @Test("clip_seconds = 0: a clip's slide is its still poster for the interval")
    func clipSecondsZeroShowsStills() throws {
        let (app, _) = try makeApp(folder: try makeFolder(), clipSeconds: 0)
        try app.runLoop(for: 30) { shows(app, "b-clip.webm") }
        #expect(shows(app, "b-clip.webm"))
        try app.runLoop(for: 1) { false }
        #expect(app.clips.item == nil)
        #expect(app.sessionDriver?.slideshowView?.isShowingMotion == false)
        #expect(app.sessionDriver?.session.slideshow.slideSeconds == nil)
        try app.runLoop(for: 20) { shows(app, "c-photo.jpg") }
        #expect(shows(app, "c-photo.jpg"))
    }
}
