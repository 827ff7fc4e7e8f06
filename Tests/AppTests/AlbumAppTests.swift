import TestSupport
import Testing
import Glibc
import Graphics
import Imaging
import Platform
import UI
@testable import PhotoKioskApp
import Widgets

/// The whole app headless: tap a photo in the grid, flick through the album, go back.
@Suite struct AlbumAppTests {
    let kiosk = KioskAppTests()

    func send(_ app: KioskApp, _ phase: Platform.TouchPhase, _ p: Point, at time: Double) {
        app.handle(.touch(slot: 0, phase: phase, location: p, time: time))
        app.handle(.frame(time: time))
        app.host.pump()
    }

    /// A horizontal flick of `dx` points over five input frames of 1/60 s.
    func flick(_ app: KioskApp, from start: Point, dx: Double) {
        var t = app.host.loop.now
        send(app, .down, start, at: t)
        for i in 1...5 {
            t += 1.0 / 60
            send(app, .motion, Point(x: start.x + dx * Double(i) / 5, y: start.y), at: t)
        }
        send(app, .up, Point(x: start.x + dx, y: start.y), at: t)
    }

    func tap(_ app: KioskApp, _ p: Point) {
        let t = app.host.loop.now
        send(app, .down, p, at: t)
        send(app, .up, p, at: t + 0.05)
    }

    @Test func tapOpensTheAlbumFlickShowsTheNextPhotoAndSwipeDownReturns() throws {
        let folder = try kiosk.makeFolder(photoCount: 6)
        let (app, display) = try kiosk.makeApp(folder: folder)
        #expect(try app.runUntilSettled(timeout: 20))
        tap(app, app.grid.convert(app.grid.layout.frame(of: 1).center, to: nil))
        #expect(try app.runUntilSettled(timeout: 20))
        let album = try #require(app.album)
        #expect(album.centerPageIndex == 1)
        #expect(album.centerPage?.content.quality == .screen)
        #expect(album.centerPage?.content.originalSize == Size(width: 320, height: 200))
        // 320x200 fitted to 800x600: 800x500, black bars of 50 above and below.
        #expect(kiosk.close(display.frameBuffer.color(x: 400, y: 300), KioskAppTests.colors[1]))
        #expect(kiosk.close(display.frameBuffer.color(x: 790, y: 60), KioskAppTests.colors[1]))
        #expect(display.frameBuffer.color(x: 400, y: 25) == .black)

        flick(app, from: Point(x: 600, y: 300), dx: -150)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(album.centerPageIndex == 2)
        #expect(album.centerPage?.content.quality == .screen)
        #expect(kiosk.close(display.frameBuffer.color(x: 400, y: 300), KioskAppTests.colors[2]))
        #expect(kiosk.close(display.frameBuffer.color(x: 10, y: 300), KioskAppTests.colors[2]))

        // Swipe down at fit zoom: back to the grid, scrolled to photo 2.
        var t = app.host.loop.now
        send(app, .down, Point(x: 400, y: 150), at: t)
        for i in 1...8 {
            t += 1.0 / 60
            send(app, .motion, Point(x: 400, y: 150 + Double(i) * 30), at: t)
        }
        send(app, .up, Point(x: 400, y: 390), at: t)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.album == nil)
        #expect(app.grid.visibleIndices.contains(2))
        #expect(kiosk.close(kiosk.colorAtCentre(of: 2, app, display), KioskAppTests.colors[2]))
    }

    @Test func arrowKeysPageAndEscapeReturns() throws {
        let folder = try kiosk.makeFolder(photoCount: 4)
        let (app, display) = try kiosk.makeApp(folder: folder)
        #expect(try app.runUntilSettled(timeout: 20))
        app.openPhoto(at: 0)
        let now = app.host.loop.now
        app.handle(.key(.right, pressed: true, time: now))
        app.handle(.key(.right, pressed: false, time: now))
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.album?.centerPageIndex == 1)
        #expect(kiosk.close(display.frameBuffer.color(x: 400, y: 300), KioskAppTests.colors[1]))
        app.handle(.key(.escape, pressed: true, time: now + 1))
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.album == nil)
    }
}

@Suite struct AlbumZoomAppTests {
    let kiosk = KioskAppTests()

    @Test func doubleTapOnALargePhotoLoadsTheFullImageAtOneToOne() throws {
        let dir = kiosk.scratch.newFolder("album")
        // 4-pixel black and white columns: sharp at 1:1, grey mush in a screen-sized image.
        // Exactly twice the screen: anything bigger opens in tiled mode (TileAppTests).
        let big = Bitmap(width: 1600, height: 1200)
        for y in 0..<big.height {
            for x in 0..<big.width { big.setPixel(x: x, y: y, ((x / 4) % 2 == 0 ? Color.black : Color.white).pixel) }
        }
        try FileReader.write(try JPEGEncoder.encode(big, options: .init(quality: 98)), to: dir + "/big.jpg")
        let (app, display) = try kiosk.makeApp(folder: dir)
        #expect(try app.runUntilSettled(timeout: 20))
        app.openPhoto(at: 0)
        #expect(try app.runUntilSettled(timeout: 20))
        let album = try #require(app.album)
        let page = try #require(album.centerPage)
        #expect(page.content.quality == .screen)
        #expect(page.content.originalSize == Size(width: 1600, height: 1200))
        #expect(page.zoomScale == 600.0 / 1200)
        let centre = Point(x: 400, y: 300)
        for _ in 0..<2 {
            let t = app.host.loop.now
            app.handle(.touch(slot: 0, phase: .down, location: centre, time: t))
            app.handle(.frame(time: t))
            app.host.pump()
            app.handle(.touch(slot: 0, phase: .up, location: centre, time: t + 0.05))
            app.handle(.frame(time: t + 0.05))
            app.host.pump()
        }
        #expect(try app.runUntilSettled(timeout: 30))
        #expect(page.zoomScale == 1)
        #expect(page.content.quality == .full)
        // A row of the screen alternates between near-black and near-white every 4 pixels.
        var sharp = 0
        for x in stride(from: 200, to: 600, by: 1) {
            let c = display.frameBuffer.color(x: x, y: 300)
            if c.red < 40 || c.red > 215 { sharp += 1 }
        }
        #expect(sharp > 380)
    }
}
