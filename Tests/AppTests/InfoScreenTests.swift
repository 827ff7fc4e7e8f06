import Testing
import Graphics
import Imaging
import Platform
import SystemAccess
import TestSupport
@testable import PhotoKioskApp

/// Issue 30 item 3: a finger held in a corner opens the info screen with the pairing QR code;
/// "New code" replaces it; the token is kept in the state directory.
@Suite struct InfoScreenTests {
    func makeApp(size: Size = Size(width: 800, height: 480)) throws -> (KioskApp, HeadlessDisplay, ScratchDirectory) {
        let scratch = ScratchDirectory()
        let bitmap = Bitmap(width: 160, height: 120)
        Canvas(target: bitmap).clear(.green)
        for i in 0..<12 { scratch.file("p\(i).jpg", bytes: try JPEGEncoder.encode(bitmap, options: .init(quality: 90))) }
        let display = HeadlessDisplay(width: Int(size.width), height: Int(size.height))
        let app = KioskApp(config: KioskConfig(), folders: [scratch.path.description], display: display,
                           loop: try EventLoop(signals: []), thumbnailCacheDirectory: nil, logger: .init(label: "test"))
        try app.start()
        #expect(try app.runUntilSettled(timeout: 20))
        return (app, display, scratch)
    }

    func hold(_ app: KioskApp, at point: Point, for seconds: Double, moving: Point = Point(x: 0, y: 0)) throws {
        let start = app.host.loop.now
        app.handle(.touch(slot: 0, phase: .down, location: point, time: start))
        app.handle(.frame(time: start))
        if moving != Point(x: 0, y: 0) {
            app.handle(.touch(slot: 0, phase: .motion, location: point + moving, time: start + 0.1))
            app.handle(.frame(time: start + 0.1))
        }
        _ = try app.host.run(until: { false }, timeout: seconds)
        let end = app.host.loop.now
        app.handle(.touch(slot: 0, phase: .up, location: point + moving, time: end))
        app.handle(.frame(time: end))
        _ = try app.host.run(until: { true }, timeout: 1)
    }

    func decode(_ display: HeadlessDisplay, _ scratch: ScratchDirectory, _ name: String) throws -> [String] {
        let png = scratch[name].description
        try PNGEncoder.write(display.frameBuffer, to: png)
        return try ExternalTool.output("zbarimg", ["--quiet", "--raw", png]).split(separator: "\n").map(String.init)
    }

    @Test("Two seconds in a corner open it; a short touch or a finger that moves does not")
    func cornerHoldOpens() throws {
        let (app, _, _) = try makeApp()
        try hold(app, at: Point(x: 795, y: 5), for: 0.8)
        #expect(app.infoView == nil, "a short touch")
        try hold(app, at: Point(x: 795, y: 5), for: 2.4, moving: Point(x: -60, y: 40))
        #expect(app.infoView == nil, "a drag out of the corner")
        try hold(app, at: Point(x: 400, y: 240), for: 2.4)
        #expect(app.infoView == nil, "the middle of the screen")
        #expect(app.album == nil)
        try hold(app, at: Point(x: 795, y: 5), for: 2.4)
        #expect(app.infoView != nil)
        #expect(app.album == nil, "the held photo did not open: the finger was taken from the grid")
        #expect(!(app.grid.isReordering), "nor lifted for reordering")
        app.handle(.key(.escape, pressed: true, time: app.host.loop.now))
        _ = try app.host.run(until: { true }, timeout: 1)
        #expect(app.infoView == nil)
    }

    @Test("The info screen's QR code decodes to the pairing address; New code replaces it")
    func newCode() throws {
        let (app, display, scratch) = try makeApp()
        app.pairingOffer = PairingOffer(url: "http://192.168.1.20:8080/?pair=first-token-0123456789", address: "http://192.168.1.20:8080/")
        var made = 0
        app.makeNewPairingCode = {
            made += 1
            return PairingOffer(url: "http://192.168.1.20:8080/?pair=second-token-\(made)abcdefgh", address: "http://192.168.1.20:8080/")
        }
        app.showInfoScreen()
        _ = try app.host.run(until: { true }, timeout: 1)
        let view = try #require(app.infoView)
        #expect(try decode(display, scratch, "first.png") == ["http://192.168.1.20:8080/?pair=first-token-0123456789"])
        #expect(view.actions.map(\.title) == ["New code", "Close"])
        let button = view.convert(view.buttonFrames[0].center, to: nil)
        let now = app.host.loop.now
        app.handle(.touch(slot: 0, phase: .down, location: button, time: now))
        app.handle(.frame(time: now))
        app.handle(.touch(slot: 0, phase: .up, location: button, time: now + 0.05))
        app.handle(.frame(time: now + 0.05))
        _ = try app.host.run(until: { made == 1 }, timeout: 2)
        _ = try app.host.run(until: { true }, timeout: 1)
        #expect(made == 1)
        #expect(try decode(display, scratch, "second.png") == ["http://192.168.1.20:8080/?pair=second-token-1abcdefgh"])
        #expect(app.pairingOffer?.url == "http://192.168.1.20:8080/?pair=second-token-1abcdefgh", "the no-photos screen shows the new one too")
    }

    @Test("Without the remote page the info screen says how to turn it on, and shows no code")
    func remoteOff() throws {
        let (app, _, scratch) = try makeApp(size: Size(width: 320, height: 240))
        app.showInfoScreen()
        _ = try app.host.run(until: { true }, timeout: 1)
        let view = try #require(app.infoView)
        #expect(view.code == nil)
        #expect(view.paragraphs.contains { $0.contains("[remote] listen") })
        #expect(view.paragraphs.first == "12 photos from \(scratch.path.description).")
        #expect(view.fitsAllText)
    }

    @Test("A new token is kept in the state directory and read back; anything else is not a token")
    func tokenStore() throws {
        let scratch = ScratchDirectory()
        let store = PairingTokenStore(path: scratch["remote-token"].description)
        #expect(store.load() == nil)
        try store.save("9f3a1c7e5b20d84a6c13f7e2")
        #expect(store.load() == "9f3a1c7e5b20d84a6c13f7e2")
        scratch.file("remote-token", bytes: Array("short\n".utf8))
        #expect(store.load() == nil, "too short to protect the page")
    }
}
