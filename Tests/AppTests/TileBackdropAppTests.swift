import Testing
import Glibc
import Graphics
import Imaging
import Platform
import UI
@testable import PhotoKioskApp
import Widgets

/// The whole app headless: a photo more than twice the screen opens in tiled mode, and until
/// its tiles arrive the album page's own picture (thumbnail, then screen-sized decode) shows
/// through them — never the tiles' grey placeholder over a page that has an image.
@Suite struct TileBackdropAppTests {
    let kiosk = KioskAppTests()
    static let placeholder = Color(rgb: 0x202024)
    static let photoColor = Color(rgb: 0x3080C0)

    /// Placeholder-coloured pixels of the frame buffer, sampled every 4 pixels, outside the
    /// album's controls (`chrome`: the edges of their white text over its dark shadow are greys too).
    func placeholderPixels(_ fb: Bitmap, outside chrome: [Rect] = []) -> Int {
        var n = 0
        for y in stride(from: 0, to: fb.height, by: 4) {
            for x in stride(from: 0, to: fb.width, by: 4) where kiosk.close(fb.color(x: x, y: y), Self.placeholder) {
                if chrome.contains(where: { $0.contains(Point(x: Double(x), y: Double(y))) }) { continue }
                n += 1
            }
        }
        return n
    }

    @Test func theThumbnailShowsUntilTheTilesCoverIt() throws {
        // 2000x1400 on 800x600: at fit 800x560 at y 20. One colour, with a white square whose
        // sharp edge only the tiles (or the screen decode) show: image 200..280 = screen 80..112, 100..132.
        let big = Bitmap(width: 2000, height: 1400)
        let canvas = Canvas(target: big)
        canvas.clear(Self.photoColor)
        canvas.fill(Rect(x: 200, y: 200, width: 80, height: 80), color: .white)
        let (app, display, _, _) = try TileAppTests.startApp(photos: [("a-big.jpg", big)])
        #expect(try app.runUntilSettled(timeout: 20))
        let fb = display.frameBuffer

        app.openPhoto(at: 0)
        // Tiled at once: the grid's thumbnail decode brought the photo's size (read on a worker;
        // the loop never reads a file for it).
        let tiled = try #require(app.tiledPhoto)
        let view = tiled.content.view
        // The first frame, drawn before the loop turns once: no tile has been delivered (a worker
        // may have put one in the cache already; it would draw, which is fine too).
        #expect(app.album?.centerPage?.bitmap != nil)
        app.host.pump()
        try PNGEncoder.write(fb, to: "/tmp/photokiosk-tilebackdrop-first.png")
        #expect(view.liveTileCount > 0)
        #expect(view.isAtFitFrame)
        #expect(kiosk.close(fb.color(x: 400, y: 300), Self.photoColor))
        let chrome = app.album?.chromeFrames ?? []
        #expect(!chrome.isEmpty)
        #expect(placeholderPixels(fb, outside: chrome) == 0)
        #expect(kiosk.close(fb.color(x: 400, y: 5), .black))

        // Every frame until the tiles (and the pyramid) are in: the placeholder never shows.
        var frames = 0, framesWithPlaceholder = 0
        let settled = try app.host.run(until: {
            frames += 1
            if placeholderPixels(fb, outside: chrome) > 0 { framesWithPlaceholder += 1 }
            return tiled.content.isSettled && tiled.content.isPyramidReady && app.isContentLoaded
        }, timeout: 30)
        #expect(settled)
        #expect(frames > 1)
        #expect(framesWithPlaceholder == 0)
        try PNGEncoder.write(fb, to: "/tmp/photokiosk-tilebackdrop-settled.png")
        #expect(view.missingTileCount == 0)
        #expect(kiosk.close(fb.color(x: 400, y: 300), Self.photoColor))
        #expect(kiosk.close(fb.color(x: 96, y: 116), .white))
        #expect(kiosk.close(fb.color(x: 76, y: 116), Self.photoColor))
        #expect(kiosk.close(fb.color(x: 400, y: 5), .black))
        app.closePhoto()
    }
}
