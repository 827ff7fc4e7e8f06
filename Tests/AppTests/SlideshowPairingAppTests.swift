import TestSupport
import Graphics
import Imaging
import Platform
@testable import PhotoKioskApp
import Testing

/// Portrait pairing in the running app: decoded photos (their orientation as shown) decide, the
/// pair shares the screen, and the order moves on past it.
@Suite struct SlideshowPairingAppTests {
    /// The folders a test makes, removed after it.
    let scratch = ScratchDirectory()

    /// photo00 red portrait, photo01 green portrait, photo02 blue landscape, photo03 yellow portrait.
    func makeFolder() throws -> String {
        let dir = scratch.newFolder("pairs")
        let photos: [(Color, Int, Int)] = [(.red, 200, 320), (.green, 200, 320), (.blue, 320, 200), (Color(rgb: 0xFFFF00), 200, 320)]
        for (i, (color, w, h)) in photos.enumerated() {
            let b = Bitmap(width: w, height: h)
            Canvas(target: b).clear(color)
            try FileReader.write(try JPEGEncoder.encode(b, options: .init(quality: 95)), to: dir + "/photo0\(i).jpg")
        }
        return dir
    }

    func close(_ a: Color, _ b: Color) -> Bool {
        abs(Int(a.red) - Int(b.red)) < 24 && abs(Int(a.green) - Int(b.green)) < 24 && abs(Int(a.blue) - Int(b.blue)) < 24
    }

    @Test(arguments: [false, true])
    func twoPortraitsShareTheScreenAndTheOrderMovesOn(kenBurns: Bool) throws {
        var config = KioskConfig()
        config.library.thumbnailSize = 190
        config.slideshow.idleTimeout = 30
        config.slideshow.interval = 30
        config.slideshow.transitionDuration = 0.1
        config.slideshow.pairPortraits = true
        config.slideshow.kenBurns = kenBurns
        let display = HeadlessDisplay(width: 800, height: 600)
        let app = KioskApp(config: config, folders: [try makeFolder()], display: display, loop: try EventLoop(signals: []),
                           thumbnailCacheDirectory: nil, logger: .init(label: "test"))
        try app.start()
        #expect(try app.runUntilSettled(timeout: 20))
        let life = app.startKioskSession(resume: nil, startingSlideshowAt: app.photos[0].path)
        // Ken Burns keeps the window animating: wait for the slide only.
        let deadline = app.host.loop.now + 20
        while !life.isSlideshowSettled && app.host.loop.now < deadline {
            try app.host.loop.runOnce(timeout: 0.02)
            app.host.pump()
        }
        #expect(life.isSlideshowSettled)
        let shown = try #require(life.slideshowView?.photos)
        #expect(shown.map { $0.description.suffix(11) } == ["photo00.jpg", "photo01.jpg"])
        #expect(life.session.slideshow.sequencer.current == shown.last, "the pair counts as both photos")
        if !kenBurns {
            #expect(close(display.frameBuffer.color(x: 300, y: 300), .red))
            #expect(close(display.frameBuffer.color(x: 500, y: 300), .green))
        }

        // Next: the landscape photo, alone (its successor is a portrait, but it is not narrow).
        #expect(life.requestStep(forward: true))
        let end = app.host.loop.now + 20
        while !(life.isSlideshowSettled && life.slideshowView?.photo?.description.hasSuffix("photo02.jpg") == true) && app.host.loop.now < end {
            try app.host.loop.runOnce(timeout: 0.02)
            app.host.pump()
        }
        #expect(life.slideshowView?.photos.map { $0.description.suffix(11) } == ["photo02.jpg"])
        if !kenBurns {
            #expect(close(display.frameBuffer.color(x: 400, y: 300), .blue))
        }
    }
}
