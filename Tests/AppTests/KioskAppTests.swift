import TestSupport
import Testing
import Glibc
import Graphics
import Imaging
import Platform
import UI
@testable import PhotoKioskApp
import Widgets

/// The whole app on a headless screen, with photos the test writes itself.
@Suite struct KioskAppTests {
    static let colors: [Color] = [.red, .green, .blue, Color(rgb: 0xFFFF00), Color(rgb: 0x00FFFF), Color(rgb: 0xFF00FF)]

    /// The folders a test makes, removed with this value (suites that borrow `makeFolder` keep
    /// a `KioskAppTests` for the test's length).
    let scratch = ScratchDirectory()

    func makeFolder(photoCount: Int, broken: [String] = []) throws -> String {
        let dir = scratch.newFolder("app")
        for i in 0..<photoCount {
            let b = Bitmap(width: 320, height: 200)
            Canvas(target: b).clear(Self.colors[i % Self.colors.count])
            let name = String(format2(i)) + ".jpg"
            try FileReader.write(try JPEGEncoder.encode(b, options: .init(quality: 95)), to: dir + "/" + name)
        }
        for name in broken {
            try FileReader.write(Array("not a photo".utf8), to: dir + "/" + name)
        }
        return dir
    }

    func format2(_ i: Int) -> String { i < 10 ? "photo0\(i)" : "photo\(i)" }

    func makeApp(folder: String, size: Size = Size(width: 800, height: 600)) throws -> (KioskApp, HeadlessDisplay) {
        try startedGridApp(folders: [folder], size: size)
    }

    func colorAtCentre(of index: Int, _ app: KioskApp, _ display: HeadlessDisplay) -> Color {
        let c = app.grid.convert(app.grid.layout.frame(of: index).center, to: nil)
        return display.frameBuffer.color(x: Int(c.x), y: Int(c.y))
    }

    func close(_ a: Color, _ b: Color) -> Bool {
        abs(Int(a.red) - Int(b.red)) < 24 && abs(Int(a.green) - Int(b.green)) < 24 && abs(Int(a.blue) - Int(b.blue)) < 24
    }

    @Test func gridShowsEveryPhotoInNameOrderAndABrokenTile() throws {
        let folder = try makeFolder(photoCount: 8, broken: ["zz-broken.jpg"])
        let (app, display) = try makeApp(folder: folder)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.photos.count == 9)
        for i in 0..<8 {
            #expect(close(colorAtCentre(of: i, app, display), Self.colors[i % Self.colors.count]), "photo \(i)")
        }
        let brokenFrame = app.grid.convert(app.grid.layout.frame(of: 8), to: nil)
        #expect(display.frameBuffer.color(x: Int(brokenFrame.minX) + 3, y: Int(brokenFrame.minY) + 3) == ThumbnailCellView.brokenColor)
    }

    @Test func tapOpensThePhotoAndEscapeReturns() throws {
        let folder = try makeFolder(photoCount: 5)
        let (app, display) = try makeApp(folder: folder)
        #expect(try app.runUntilSettled(timeout: 20))
        let target = app.grid.convert(app.grid.layout.frame(of: 2).center, to: nil)
        let now = app.host.loop.now
        app.handle(.touch(slot: 0, phase: .down, location: target, time: now))
        app.handle(.frame(time: now))
        app.handle(.touch(slot: 0, phase: .up, location: target, time: now + 0.05))
        app.handle(.frame(time: now + 0.05))
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.album?.centerPageIndex == 2)
        #expect(app.album?.centerPage?.content.quality == .screen)
        // The photo fills the screen's width (320x200 on 800x600: letterboxed top and bottom).
        #expect(close(display.frameBuffer.color(x: 400, y: 300), Self.colors[2]))
        #expect(display.frameBuffer.color(x: 400, y: 20) == .black)
        app.handle(.key(.escape, pressed: true, time: now + 1))
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.album == nil)
        #expect(close(colorAtCentre(of: 2, app, display), Self.colors[2]))
    }

    /// Idle means asleep: with every folder present, nothing wakes the loop (the folder check
    /// waits for mount-table changes instead of polling).
    @Test func anIdleGridHasNoWakeups() throws {
        let folder = try makeFolder(photoCount: 3)
        let (app, _) = try makeApp(folder: folder)
        #expect(try app.runUntilSettled(timeout: 20))
        // Let start-up work (indicator fades, late deliveries) drain first: 1.5 s of quiet, since on
        // a loaded machine one late decode can come more than 0.5 s after the previous one. A
        // periodic timer of up to 3.5 s still fires inside the window below.
        try app.host.loop.runUntilQuiet(for: 1.5)
        let before = app.host.loop.wakeups
        let end = app.host.loop.now + 3.5
        while app.host.loop.now < end { _ = try app.host.loop.runOnce(timeout: end - app.host.loop.now) }
        #expect(app.host.loop.wakeups == before)
    }

    @Test func photosAddedWhileRunningAppear() throws {
        let folder = try makeFolder(photoCount: 2)
        let (app, _) = try makeApp(folder: folder)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.grid.itemCount == 2)
        let b = Bitmap(width: 64, height: 64)
        Canvas(target: b).clear(.white)
        try FileReader.write(try JPEGEncoder.encode(b, options: .init()), to: folder + "/new.jpg")
        // inotify reports the close-after-write; the loop picks it up.
        _ = try app.host.run(until: { app.grid.itemCount == 3 }, timeout: 10)
        #expect(app.grid.itemCount == 3)
        unlink(folder + "/photo00.jpg")
        _ = try app.host.run(until: { app.grid.itemCount == 2 }, timeout: 10)
        #expect(app.grid.itemCount == 2)
    }

    @Test func theAlbumKeepsItsPhotoWhenPhotosAreAddedOrRemovedBeforeIt() throws {
        let folder = try makeFolder(photoCount: 5)
        let (app, display) = try makeApp(folder: folder)
        #expect(try app.runUntilSettled(timeout: 20))
        app.openPhoto(at: 2)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(close(display.frameBuffer.color(x: 400, y: 300), Self.colors[2]))
        // A photo that sorts first arrives: photo02 is now the fourth, and still on screen.
        let b = Bitmap(width: 64, height: 64)
        Canvas(target: b).clear(.white)
        try FileReader.write(try JPEGEncoder.encode(b, options: .init()), to: folder + "/a-first.jpg")
        _ = try app.host.run(until: { app.photos.count == 6 }, timeout: 10)
        #expect(app.album?.centerPageIndex == 3)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(close(display.frameBuffer.color(x: 400, y: 300), Self.colors[2]))
        // One before it goes away: back to the third, still photo02.
        unlink(folder + "/photo00.jpg")
        _ = try app.host.run(until: { app.photos.count == 5 }, timeout: 10)
        #expect(app.album?.centerPageIndex == 2)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(close(display.frameBuffer.color(x: 400, y: 300), Self.colors[2]))
        // The photo itself goes away: the album shows the one that took its place.
        unlink(folder + "/photo02.jpg")
        _ = try app.host.run(until: { app.photos.count == 4 }, timeout: 10)
        #expect(app.album?.centerPageIndex == 2)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(close(display.frameBuffer.color(x: 400, y: 300), Self.colors[3]))
    }
}

@Suite struct LargeLibraryTests {
    /// Seed of the grid: never read the whole library to show the first screen. A 10,000-photo
    /// folder (copies of one small JPEG: hard links would be one photo, the scanner lists a file
    /// once) must cost decodes for about three screens of cells.
    @Test func tenThousandPhotosDecodeOnlyWhatIsNearTheScreen() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.path.description
        let b = Bitmap(width: 64, height: 48)
        Canvas(target: b).clear(.green)
        let jpeg = try JPEGEncoder.encode(b, options: .init())
        for i in 0..<10_000 {
            let fd = open(dir + "/p\(i).jpg", O_WRONLY | O_CREAT, 0o644)
            #expect(jpeg.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == jpeg.count)
            close(fd)
        }
        let (app, _) = try startedGridApp(folders: [dir], size: Size(width: 1280, height: 800))
        #expect(try app.runUntilSettled(timeout: 60))
        #expect(app.photos.count == 10_000)
        let live = app.grid.liveIndices.count
        let stats = app.loaderStatistics
        #expect(live < 200)
        // While the scan streams in, name order inserts photos before the ones shown, so some
        // decodes are for cells that were visible for a moment; far fewer than the library.
        #expect(stats.decodesStarted <= live * 4, "\(stats)")
        #expect(stats.decodesStarted >= app.grid.visibleIndices.count)
    }
}
