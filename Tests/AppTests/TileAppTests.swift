import TestSupport
import Testing
import Glibc
import Graphics
import Imaging
import Platform
import UI
@testable import PhotoKioskApp
import Widgets

/// The whole app headless: a photo far bigger than the screen opens in tiled mode inside the
/// album, its pyramid lands in the cache folder, zooming to 1:1 shows its own pixels, and
/// paging to an ordinary photo leaves tiled mode.
@Suite struct TileAppTests {
    let album = AlbumAppTests()

    /// The app on an 800x600 headless screen over a fresh folder of `photos` (written as JPEGs),
    /// with its own thumbnail and pyramid cache folder.
    static func startApp(photos named: [(name: String, bitmap: Bitmap)]) throws
        -> (app: KioskApp, display: HeadlessDisplay, photos: String, cache: String)
    {
        let folder = makeTemporaryDirectory("tileapp")
        let photos = folder + "/photos", cacheDir = folder + "/cache"
        mkdir(photos, 0o755)
        mkdir(cacheDir, 0o755)
        for (name, bitmap) in named {
            try FileReader.write(try JPEGEncoder.encode(bitmap, quality: 95), to: photos + "/" + name)
        }
        let (app, display) = try startedGridApp(folders: [photos], thumbnailCacheDirectory: cacheDir)
        return (app, display, photos, cacheDir)
    }

    @Test func bigPhotoInTheAlbumIsTiledAndPyramidCached() throws {
        // 2000x1400 on an 800x600 screen: more than twice as wide. Left half red, right half blue.
        let big = Bitmap(width: 2000, height: 1400)
        let canvas = Canvas(target: big)
        canvas.fill(Rect(x: 0, y: 0, width: 1000, height: 1400), color: .red)
        canvas.fill(Rect(x: 1000, y: 0, width: 1000, height: 1400), color: .blue)
        canvas.fill(Rect(x: 990, y: 690, width: 20, height: 20), color: .white)
        let small = Bitmap(width: 320, height: 200)
        Canvas(target: small).clear(.green)
        let (app, display, photos, cacheDir) = try Self.startApp(photos: [("a-big.jpg", big), ("b-small.jpg", small)])
        #expect(try app.runUntilSettled(timeout: 20))
        app.openPhoto(at: 0)
        // Tiled once a decode of the photo brought its size (read on a worker, never on the loop).
        #expect(try app.host.run(until: { app.tiledPhoto != nil }, timeout: 20))
        let tiled = try #require(app.tiledPhoto)
        #expect(try app.host.run(until: { tiled.content.isPyramidReady && app.isContentLoaded }, timeout: 30))
        let pyramid = try #require(PyramidCache(directory: cacheDir + "/pyramids").existing(for: RawPath(photos + "/a-big.jpg")))
        #expect(try DeepZoomTileSource(descriptorPath: pyramid).layout.width == 2000)
        let fb = display.frameBuffer
        #expect(album.kiosk.close(fb.color(x: 200, y: 300), .red))
        #expect(album.kiosk.close(fb.color(x: 600, y: 300), .blue))

        // 1:1 around the white square: the square is 20 screen pixels wide in the middle.
        tiled.content.view.zoom(toScale: 1, centeredAt: Point(x: 1000, y: 700), animated: false)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(tiled.content.view.resolution == 0)
        #expect(album.kiosk.close(fb.color(x: 400, y: 300), .white))
        #expect(album.kiosk.close(fb.color(x: 385, y: 300), .red))
        #expect(album.kiosk.close(fb.color(x: 415, y: 300), .blue))

        // Back to fit, then a flick: at fit the tiled view cannot scroll sideways, so the album pages.
        tiled.content.view.zoom(toScale: tiled.content.view.fitScale, centeredAt: Point(x: 1000, y: 700), animated: false)
        #expect(try app.runUntilSettled(timeout: 20))
        album.flick(app, from: Point(x: 600, y: 300), dx: -150)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.album?.centerPageIndex == 1)
        #expect(app.tiledPhoto == nil)
        #expect(tiled.content.view.superview == nil)
        app.closePhoto()
    }
}
