import Testing
import Graphics
import Imaging
import Platform
@testable import PhotoKioskApp
import Widgets

/// The album's chrome in the whole app: sized from the screen's (or the touch panel's)
/// millimetres, the filmstrip showing the grid's thumbnails and reordering the app's list.
@Suite struct AlbumChromeAppTests {
    let kiosk = KioskAppTests()

    @Test func theControlsAreSizedFromTheScreensMillimetres() throws {
        let (app, display) = try kiosk.makeApp(folder: try kiosk.makeFolder(photoCount: 3))
        #expect(try app.runUntilSettled(timeout: 20))
        // 800x600 on 80x60 mm: 10 pixels per mm, a point (1/160 inch) 1.59 pixels.
        display.physicalSize = Size(width: 80, height: 60)
        app.openPhoto(at: 0)
        let album = try #require(app.album)
        #expect(abs(album.metrics.scale - 10 * 25.4 / 160) < 1e-9)
        #expect(album.indicator.metrics == album.metrics)
        app.closePhoto()
        // Unknown: the screen's short side alone (600 / 720).
        display.physicalSize = nil
        app.openPhoto(at: 0)
        #expect(abs((app.album?.metrics.scale ?? 0) - 600.0 / 720) < 1e-9)
        app.closePhoto()
    }

    @Test func aTouchPanelsSizeServesWhenTheScreenReportsNone() throws {
        let (app, _) = try kiosk.makeApp(folder: try kiosk.makeFolder(photoCount: 3))
        #expect(try app.runUntilSettled(timeout: 20))
        app.handle(.deviceAdded(InputDeviceInfo(name: "Panel", node: "/dev/input/event3", isTouchscreen: true, isPointer: false,
                                                isKeyboard: false, sizeMillimetres: Size(width: 80, height: 60))))
        app.openPhoto(at: 1)
        #expect(abs((app.album?.metrics.scale ?? 0) - 10 * 25.4 / 160) < 1e-9)
    }

    @Test func theFilmstripShowsTheGridsThumbnailsAndReordersTheAppsList() throws {
        let (app, display) = try kiosk.makeApp(folder: try kiosk.makeFolder(photoCount: 5))
        #expect(try app.runUntilSettled(timeout: 20))
        let names = (0..<5).map { app.photos[$0].path.description }
        app.openPhoto(at: 1)
        #expect(try app.runUntilSettled(timeout: 20))
        let album = try #require(app.album)
        let strip = album.filmstrip
        #expect(!strip.isHidden)
        #expect(strip.itemCount == 5)
        #expect(strip.thumbnailEdge == app.grid.thumbnailEdge)
        // The grid's thumbnails arrive in the strip.
        #expect(try app.host.run(until: { strip.isVisibleContentLoaded }, timeout: 20))
        guard case .image = strip.cell(at: 0)?.state else {
            Issue.record("the strip's first cell has no thumbnail")
            return
        }
        // A drop in the strip reorders the app's list; the album keeps showing its photo.
        let move = try #require(strip.onMove)
        move(1, 3)
        #expect(app.photos[3].path.description == names[1])
        #expect(app.photos[1].path.description == names[2])
        #expect(album.centerPageIndex == 3)
        #expect(strip.selectedIndex == 3)
        // Back in the grid, the grid shows the new order.
        app.closePhoto()
        #expect(try app.runUntilSettled(timeout: 20))
        let colors = KioskAppTests.colors
        #expect(kiosk.close(kiosk.colorAtCentre(of: 3, app, display), colors[1]))
        #expect(kiosk.close(kiosk.colorAtCentre(of: 1, app, display), colors[2]))
    }
}
