import TestSupport
import Testing
import Glibc
import Graphics
import Imaging
import Platform
import UI
@testable import PhotoKioskApp
import Widgets

/// Issue 35 item 1: the album plays a clip when it is the settled centre page, in the clip's
/// rectangle only, with a progress bar; a tap pauses and resumes it; a swipe away stops it; a
/// damaged clip stays a still page and is said in the log.
@Suite("Clips playing in the album", .serialized,
       .enabled(if: ClipFixture.canRun, "GStreamer's tools or plugins are missing (scripts/install-deps.sh installs them)"))
struct ClipAlbumAppTests {
    let scratch = ScratchDirectory()
    let album = AlbumAppTests()

    /// A 16:9 clip of videotestsrc's moving ball (white on black), 3 s, and a blue photo after it.
    func makeFolder() throws -> String {
        let folder = scratch.newFolder("library")
        _ = try ClipFixture.write(pattern: "ball", width: 320, height: 180, frames: 90, as: .webm, to: folder, name: "a-clip")
        let photo = Bitmap(width: 320, height: 200)
        Canvas(target: photo).clear(.blue)
        try FileReader.write(try JPEGEncoder.encode(photo, options: .init(quality: 95)), to: folder + "/b-photo.jpg")
        return folder
    }

    func isPlayingFrame(_ page: PhotoPageView) -> Bool {
        page.displayedMotionFrame != nil && page.motionProgress != nil
    }

    @Test("a clip plays on its settled page, only its rectangle is repainted, a tap pauses and resumes it, a swipe stops it")
    func playsPausesAndStops() throws {
        let (app, display) = try startedGridApp(folders: [try makeFolder()], size: Size(width: 800, height: 600))
        #expect(try app.runUntilSettled(timeout: 20))
        app.openPhoto(at: 0)
        let view = try #require(app.album)
        let page = try #require(view.centerPage)
        try app.runLoop(for: 20) { isPlayingFrame(page) }
        #expect(isPlayingFrame(page), "no frame of the clip came within 20 s")
        #expect(app.albumPresenter.clips.isPlaying)
        // Decoded at most at the screen's size (GStreamer never enlarges: 320x180 stays), drawn
        // fitted to 800x600: 800x450 between black bars of 75.
        let frame = try #require(page.displayedMotionFrame)
        #expect(frame.width == 320 && frame.height == 180, "\(frame.width)x\(frame.height)")

        // Once the chrome has faded, every repaint is inside the clip's rectangle.
        try app.runLoop(for: 10) { !view.isChromeVisible }
        #expect(!view.isChromeVisible)
        let clipRect = PixelRect(x: 0, y: 75, width: 800, height: 450)
        var repaints = 0, outside: [PixelRect] = []
        var frames: [[UInt32]] = []
        let end = app.host.loop.now + 1.5
        while app.host.loop.now < end {
            let before = display.presentedFrames
            try app.host.loop.runOnce(timeout: 0.02)
            app.host.pump()
            guard display.presentedFrames > before else { continue }
            repaints += 1
            outside += display.lastDamage.filter { $0.intersection(clipRect) != $0 }
            if repaints % 10 == 1 { frames.append((0..<450).map { display.frameBuffer.pixel(x: 400, y: 75 + $0) }) }
        }
        #expect(repaints >= 10, "only \(repaints) repaints in 1.5 s of playing")
        #expect(outside.isEmpty, "repainted outside the clip: \(outside)")
        #expect(Set(frames.map { $0.hashValue }).count >= 2, "the ball did not move on screen")
        #expect(display.frameBuffer.color(x: 400, y: 30) == .black)

        // A tap pauses (after the wait for a second tap); the picture and the bar stop.
        album.tap(app, Point(x: 400, y: 300))
        try app.runLoop(for: 2) { !app.albumPresenter.clips.isPlaying }
        #expect(!app.albumPresenter.clips.isPlaying)
        try app.runLoop(for: 0.5)
        let pausedAt = page.motionProgress, pausedFrame = page.displayedMotionFrame
        try app.runLoop(for: 1)
        #expect(page.motionProgress == pausedAt && page.displayedMotionFrame === pausedFrame, "frames came while paused")
        // Another tap goes on.
        album.tap(app, Point(x: 400, y: 300))
        try app.runLoop(for: 10) { page.displayedMotionFrame !== pausedFrame }
        #expect(app.albumPresenter.clips.isPlaying)
        #expect(page.displayedMotionFrame !== pausedFrame)

        // A swipe to the photo stops the clip; its page is its poster again, without a bar.
        album.flick(app, from: Point(x: 600, y: 300), dx: -150)
        try app.runLoop(for: 20) { view.centerPageIndex == 1 && view.isCenterPageLoaded && !view.pager.isScrolling }
        #expect(view.centerPageIndex == 1)
        #expect(app.albumPresenter.clips.item == nil)
        if let clipPage = view.page(at: 0) {
            #expect(clipPage.displayedMotionFrame == nil && clipPage.motionProgress == nil)
        }
        #expect(view.centerPage?.motionProgress == nil)
    }

    @Test("a clip decoded at the size it is shown is drawn straight from its YUV frames: red to its edges, the bars untouched")
    func ownSizeDraw() throws {
        let folder = scratch.newFolder("library")
        _ = try ClipFixture.write(pattern: "red", width: 800, height: 450, frames: 30, as: .webm, to: folder, name: "a-clip")
        let (app, display) = try startedGridApp(folders: [folder], size: Size(width: 800, height: 600))
        #expect(try app.runUntilSettled(timeout: 20))
        app.openPhoto(at: 0)
        let page = try #require(app.album?.centerPage)
        try app.runLoop(for: 20) { isPlayingFrame(page) }
        let frame = try #require(page.displayedMotionFrame)
        #expect(frame.width == 800 && frame.height == 450, "\(frame.width)x\(frame.height)")
        try app.runLoop(for: 0.5)
        for (x, y) in [(0, 75), (799, 75), (400, 300), (0, 515), (799, 515)] {  // the progress bar runs below 520
            let c = display.frameBuffer.color(x: x, y: y)
            #expect(c.red > 200 && c.green < 60 && c.blue < 60, "(\(x),\(y)) \(c)")
        }
        #expect(display.frameBuffer.color(x: 400, y: 74) == .black && display.frameBuffer.color(x: 400, y: 525) == .black)
        // Once the chrome has faded over it, the bars are black still.
        let view = try #require(app.album)
        try app.runLoop(for: 10) { !view.isChromeVisible }
        try app.runLoop(for: 1)
        var lit: [String] = []
        for y in [0, 30, 74, 525, 560, 599] {
            for x in stride(from: 200, to: 800, by: 50) where display.frameBuffer.color(x: x, y: y) != .black {  // right of "‹ Grid"
                lit.append("(\(x),\(y)) \(display.frameBuffer.color(x: x, y: y))")
            }
        }
        #expect(lit.isEmpty, "\(lit.prefix(6))")
    }

    @Test("a clip filling the screen at its own size can go on a video plane once the chrome over it has faded, less its bar")
    func videoPlanePlacement() throws {
        let folder = scratch.newFolder("library")
        _ = try ClipFixture.write(pattern: "ball", width: 800, height: 450, frames: 60, as: .webm, to: folder, name: "a-clip")
        let (app, _) = try startedGridApp(folders: [folder], size: Size(width: 800, height: 450))
        #expect(try app.runUntilSettled(timeout: 20))
        app.openPhoto(at: 0)
        let view = try #require(app.album)
        let page = try #require(view.centerPage)
        try app.runLoop(for: 20) { isPlayingFrame(page) }
        #expect(isPlayingFrame(page))
        #expect(view.isChromeVisible && app.host.window.videoPlacement() == nil, "the chrome is drawn over the clip")
        try app.runLoop(for: 10) { !view.isChromeVisible }
        #expect(view.chromeFrames.isEmpty, "the \"‹ Grid\" button fades too while a clip plays: \(view.chromeFrames)")
        let placement = try #require(app.host.window.videoPlacement(), "nothing covers the clip but its bar")
        #expect(placement.frame === page.displayedMotionFrame)
        // The bar (opaque) along the clip's bottom stays on the screen's own buffer.
        #expect(placement.destination.x == 0 && placement.destination.y == 0 && placement.destination.width == 800)
        #expect((430..<450).contains(placement.destination.height), "\(placement.destination)")
        #expect(placement.source == placement.destination)
        // A touch brings the chrome back over it.
        view.showChrome()
        try app.runLoop(for: 0.1)
        #expect(app.host.window.videoPlacement() == nil)
        #expect(view.chromeFrames.contains { $0.minX < 100 && $0.minY < 100 }, "the button is back: \(view.chromeFrames)")
    }

    @Test("a damaged clip stays a still page, the log says why, and the album goes on")
    func damagedClip() throws {
        let folder = scratch.newFolder("library")
        let good = try ClipFixture.write(pattern: "red", width: 320, height: 180, frames: 60, as: .mp4, to: folder, name: "good")
        var bytes = try FileReader.read(path: good, maxBytes: .max)
        // The header and the start of the media, without the index at the end: no frame decodes.
        bytes = Array(bytes.prefix(bytes.count / 3))
        try FileReader.write(bytes, to: folder + "/a-damaged.mp4")
        try FileReader.write([UInt8](repeating: 0x42, count: 4096), to: folder + "/b-garbage.mp4")
        let log = LogCapture()
        var config = KioskConfig()
        config.library.thumbnailSize = 190
        let display = HeadlessDisplay(width: 800, height: 600)
        let app = KioskApp(config: config, folders: [folder], display: display, loop: try EventLoop(signals: []), thumbnailCacheDirectory: nil,
                           logger: log.logger)
        try app.start()
        _ = try app.runUntilSettled(timeout: 20)
        for index in 0..<2 {
            app.openPhoto(at: index)
            let view = try #require(app.album)
            let failures = { log.messages.filter { $0.contains("cannot play clip") } }
            try app.runLoop(for: 15) { failures().count == index + 1 && app.albumPresenter.clips.item == nil }
            #expect(failures().count == index + 1 && failures().last?.contains(index == 0 ? "a-damaged.mp4" : "b-garbage.mp4") == true,
                    "\(log.messages.suffix(20))")
            #expect(app.albumPresenter.clips.item == nil)
            #expect(view.centerPage.map { $0.motionProgress == nil } == true)
        }
        // The good clip still plays after them.
        app.openPhoto(at: 2)
        let page = try #require(app.album?.centerPage)
        try app.runLoop(for: 20) { isPlayingFrame(page) }
        #expect(isPlayingFrame(page))
        // Its frames are its colour on screen (red), drawn opaque over the poster.
        try app.runLoop(for: 1) { false }
        let centre = display.frameBuffer.color(x: 400, y: 300)
        #expect(centre.red > 200 && centre.green < 60 && centre.blue < 60, "\(centre)")
    }

    static let canPlaySound = ClipFixture.canRun && ["vorbisenc", "alsasink"].allSatisfy {
        (try? ExternalTool.run("gst-inspect-1.0", ["--exists", $0])) != nil
    }

    @Test("with sound.clips on, the album's clip plays with its sound; the slideshow plays the same clip muted",
          .enabled(if: canPlaySound, "GStreamer's vorbisenc or alsasink is missing (gstreamer1.0-plugins-base, gstreamer1.0-alsa)"))
    func soundInTheAlbumOnly() throws {
        let folder = scratch.newFolder("library")
        _ = try ClipFixture.write(pattern: "ball", width: 320, height: 180, frames: 90, tone: true, as: .webm, to: folder, name: "tone")
        var config = KioskConfig()
        config.library.thumbnailSize = 190
        config.sound.clips = true
        config.sound.device = "null"   // ALSA's device that takes sound without a card
        func playing(_ log: LogCapture) -> [String] { log.messages.filter { $0.contains("clip playing: ") && $0.contains("tone.webm") } }

        let albumLog = LogCapture()
        let albumApp = KioskApp(config: config, folders: [folder], display: HeadlessDisplay(width: 800, height: 600),
                                loop: try EventLoop(signals: []), thumbnailCacheDirectory: nil, logger: albumLog.logger)
        try albumApp.start()
        _ = try albumApp.runUntilSettled(timeout: 20)
        albumApp.openPhoto(at: 0)
        try albumApp.runLoop(for: 20) { !playing(albumLog).isEmpty }
        #expect(playing(albumLog).first?.hasSuffix("with sound on null)") == true, "\(albumLog.messages.suffix(10))")
        albumApp.albumPresenter.clips.stop()

        config.slideshow.idleTimeout = 0.3
        config.slideshow.interval = 1.5
        config.slideshow.transitionDuration = 0.1
        let slideLog = LogCapture()
        let slideApp = KioskApp(config: config, folders: [folder], display: HeadlessDisplay(width: 800, height: 600),
                                loop: try EventLoop(signals: []), thumbnailCacheDirectory: nil, logger: slideLog.logger)
        try slideApp.start()
        slideApp.startKioskSession(resume: nil, seed: 1)
        try slideApp.runLoop(for: 30) { !playing(slideLog).isEmpty }
        let line = try #require(playing(slideLog).first, "the slideshow never played the clip: \(slideLog.messages.suffix(10))")
        #expect(!line.contains("with sound"), "\(line)")
    }
}
