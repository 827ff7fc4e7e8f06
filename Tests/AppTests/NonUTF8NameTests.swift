import TestSupport
import Testing
import Glibc
import Graphics
import Imaging
import Platform
@testable import PhotoKioskApp

/// Photos named in a Windows code page (a FAT stick from an old camera): "café.jpg" in Latin-1
/// is not UTF-8, and a String would turn its é into U+FFFD and name a file that does not exist.
/// The name travels as bytes through the slideshow, the resume state, the custom order and the
/// tiled view, and comes back exactly after a restart.
@Suite struct NonUTF8NameTests {
    /// "café.jpg" with é as the single Latin-1 byte 0xE9.
    static let latin1Name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)
    static let colors: [Color] = [.red, .green, .blue]

    /// A folder with `count` small photos, the first one under the Latin-1 name (red); `big`
    /// makes that one 2000x1400 so the album tiles it.
    func makeFolder(count: Int = 3, big: Bool = false) throws -> (folder: String, odd: RawPath) {
        let folder = makeTemporaryDirectory("nonutf8")
        var odd = RawPath(folder)
        for i in 0..<count {
            let bitmap = i == 0 && big ? Bitmap(width: 2000, height: 1400) : Bitmap(width: 320, height: 200)
            Canvas(target: bitmap).clear(Self.colors[i % Self.colors.count])
            let name = i == 0 ? Self.latin1Name : Array("photo\(i).jpg".utf8)
            let path = RawPath(folder).appending(name)
            writeFile(path, try JPEGEncoder.encode(bitmap, options: .init(quality: 95)))
            if i == 0 { odd = path }
        }
        #expect(String(validating: odd.bytes, as: UTF8.self) == nil, "the test name must not be UTF-8")
        return (folder, odd)
    }

    func config(idle: Double) -> KioskConfig {
        var c = KioskConfig()
        c.library.thumbnailSize = 190
        c.slideshow.idleTimeout = idle
        c.slideshow.interval = 600
        c.slideshow.transitionDuration = 0.05
        return c
    }

    func makeApp(_ config: KioskConfig, folder: String, state: String? = nil, cache: String? = nil) throws -> (KioskApp, HeadlessDisplay) {
        let display = HeadlessDisplay(width: 800, height: 600)
        let app = KioskApp(config: config, folders: [folder], display: display, loop: try EventLoop(signals: []),
                           thumbnailCacheDirectory: cache, stateDirectory: state, logger: .init(label: "test"))
        try app.start()
        return (app, display)
    }

    func isRed(_ c: Color) -> Bool { c.red > 200 && c.green < 50 && c.blue < 50 }

    /// Runs `body` with the usual folder and a resume store in a state folder of its own, and
    /// removes both afterwards.
    func withResumeStore(_ body: (_ folder: String, _ odd: RawPath, _ store: ResumeStore) throws -> Void) throws {
        let (folder, odd) = try makeFolder()
        defer { removeTree(folder) }
        let state = makeTemporaryDirectory("nonutf8-state")
        defer { removeTree(state) }
        try body(folder, odd, ResumeStore(path: state + "/resume"))
    }

    @Test func theSlideshowShowsItAndResumesWithItAfterARestart() throws {
        try withResumeStore { folder, odd, store in
            do {
                let (app, display) = try makeApp(config(idle: 0), folder: folder)
                let life = app.startKioskSession(resume: store, seed: 1)
                #expect(try app.host.run(until: { life.isSlideshowSettled }, timeout: 20))
                #expect(life.slideshowView?.photo == odd, "sequential order starts with café.jpg")
                #expect(isRed(display.frameBuffer.color(x: 400, y: 300)), "its pixels, not a broken-photo tile")
                life.saveResume(force: true)
            }
            let saved = store.load()
            #expect(saved.problem == nil)
            #expect(saved.state.photo == odd, "stored and read back byte for byte")
            let (app, display) = try makeApp(config(idle: 600), folder: folder)
            let life = app.startKioskSession(resume: store, seed: 1)
            #expect(life.isSlideshowRunning)
            #expect(try app.host.run(until: { life.isSlideshowSettled }, timeout: 20))
            #expect(life.slideshowView?.photo == odd)
            #expect(isRed(display.frameBuffer.color(x: 400, y: 300)))
        }
    }

    @Test func theAlbumReopensAtItAfterARestart() throws {
        try withResumeStore { folder, odd, store in
            do {
                let (app, _) = try makeApp(config(idle: 600), folder: folder)
                let life = app.startKioskSession(resume: store, seed: 1)
                #expect(try app.runUntilSettled(timeout: 20))
                let index = try #require((0..<app.photos.count).first { app.photos[$0].path == odd })
                app.openPhoto(at: index)
                #expect(app.currentScreen == .photo(path: odd))
                life.saveResume(force: true)
            }
            let (app, display) = try makeApp(config(idle: 600), folder: folder)
            app.startKioskSession(resume: store, seed: 1)
            #expect(try app.runUntilSettled(timeout: 20))
            #expect(app.currentScreen == .photo(path: odd))
            #expect(isRed(display.frameBuffer.color(x: 400, y: 300)))
        }
    }

    @Test func theCustomOrderKeepsItsPlaceAfterARestart() throws {
        let (folder, odd) = try makeFolder(count: 4)
        defer { removeTree(folder) }
        let state = makeTemporaryDirectory("nonutf8-state")
        defer { removeTree(state) }
        let moved: [RawPath]
        do {
            let (app, _) = try makeApp(config(idle: 600), folder: folder, state: state)
            #expect(try app.runUntilSettled(timeout: 20))
            let from = try #require((0..<app.photos.count).first { app.photos[$0].path == odd })
            app.movePhoto(from: from, to: 3)
            moved = app.photos.photos.map(\.path)
            #expect(moved[3] == odd)
        }
        #expect(CustomOrder.load(from: state + "/order")?.paths == moved)
        let (app, _) = try makeApp(config(idle: 600), folder: folder, state: state)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.photos.photos.map(\.path) == moved)
    }

    @Test func theTiledViewBuildsItsPyramid() throws {
        let (folder, odd) = try makeFolder(count: 2, big: true)
        defer { removeTree(folder) }
        let cache = makeTemporaryDirectory("nonutf8-cache")
        defer { removeTree(cache) }
        let (app, display) = try makeApp(config(idle: 600), folder: folder, cache: cache)
        #expect(try app.runUntilSettled(timeout: 20))
        let index = try #require((0..<app.photos.count).first { app.photos[$0].path == odd })
        app.openPhoto(at: index)
        #expect(try app.host.run(until: { app.tiledPhoto != nil }, timeout: 20))
        let tiled = try #require(app.tiledPhoto, "2000x1400 on 800x600 is shown in tiles")
        #expect(tiled.content.path == odd)
        #expect(try app.host.run(until: { tiled.content.isPyramidReady && app.isContentLoaded }, timeout: 30))
        #expect(PyramidCache(directory: cache + "/pyramids").existing(for: odd) != nil)
        #expect(isRed(display.frameBuffer.color(x: 400, y: 300)))
    }
}
