import TestSupport
import Testing
import Glibc
import Graphics
import Imaging
import Platform
import UI
@testable import PhotoKioskApp
@testable import Widgets

/// Drag to reorder in the whole app, on a headless screen with the real event loop, and the
/// order kept across restarts.
@Suite(.serialized) struct ReorderAppTests {
    /// Every folder a test makes, removed after it.
    let scratch = ScratchDirectory()

    func temporaryDirectory(_ name: String) -> String { scratch.newFolder(name) }

    /// `count` tiny JPEGs named photo000.jpg…, each a colour of its own.
    func makeFolder(count: Int) throws -> String {
        let dir = temporaryDirectory("reorder-photos")
        for i in 0..<count {
            let b = Bitmap(width: 32, height: 24)
            Canvas(target: b).clear(Self.color(i))
            try FileReader.write(try JPEGEncoder.encode(b, options: .init(quality: 90)), to: dir + "/" + Self.name(i))
        }
        return dir
    }

    static func name(_ i: Int) -> String {
        "photo" + String(repeating: "0", count: 3 - String(i).count) + String(i) + ".jpg"
    }

    static func color(_ i: Int) -> Color {
        i == 0 ? Color(rgb: 0xFF2020) : Color(red: UInt8(40 + (i * 37) % 100), green: UInt8(60 + (i * 53) % 120), blue: 200)
    }

    /// 200 photos as 64-px thumbnails on 800×600 (77 points at its chrome scale of 0.83): 11
    /// columns, 19 rows, about 776 px to scroll.
    func makeApp(folder: String, state: String, thumbnail: Int = 77) throws -> (KioskApp, HeadlessDisplay) {
        var config = KioskConfig()
        config.library.thumbnailSize = thumbnail
        let display = HeadlessDisplay(width: 800, height: 600)
        let app = KioskApp(config: config, folders: [folder], display: display, loop: try EventLoop(signals: []),
                           thumbnailCacheDirectory: nil, stateDirectory: state, logger: .init(label: "test"))
        try app.start()
        return (app, display)
    }

    func touch(_ app: KioskApp, _ phase: Platform.TouchPhase, _ p: Point) {
        let now = app.host.loop.now
        app.handle(.touch(slot: 0, phase: phase, location: p, time: now))
        app.handle(.frame(time: now))
        app.host.pump()
    }

    /// Loop turns (input, timers, drawing) until `isDone`, even while timers keep running —
    /// `ScreenHost.run(until:)` also waits for the screen to go idle, which autoscroll never does.
    func turn(_ app: KioskApp, until isDone: () -> Bool, timeout: Double) throws -> Bool {
        let loop = app.host.loop
        let end = loop.now + timeout
        while !isDone() {
            if loop.now >= end { return false }
            let wait = app.window.nextDeadline.map { max(0, min($0 - loop.now, 0.05)) } ?? 0.05
            _ = try loop.runOnce(timeout: wait)
            app.host.pump()
        }
        return true
    }

    func paths(_ app: KioskApp) -> [RawPath] { app.photos.photos.map(\.path) }

    @Test func carryTheFirstPhotoToTheBottomByHoldingItAtTheEdgeAndFindItThereAfterARestart() throws {
        let folder = try makeFolder(count: 200)
        let state = temporaryDirectory("reorder-state")
        let (app, display) = try makeApp(folder: folder, state: state)
        #expect(try app.runUntilSettled(timeout: 30))
        #expect(app.photos.count == 200)
        let grid = app.grid
        #expect(grid.layout.columns == 11)
        let first = paths(app)[0]
        #expect(first.description.hasSuffix("photo000.jpg"))

        // Long press on photo 0 lifts it.
        let start = grid.convert(grid.layout.frame(of: 0).center, to: nil)
        touch(app, .down, start)
        #expect(try app.host.run(until: { grid.isReordering }, timeout: 5))
        let drag = try #require(grid.reorderDrag)
        #expect(drag.plan.from == 0)

        // Down to the bottom edge zone, 10 px above the edge (4 px per tick), and hold there.
        let edge = Point(x: grid.convert(grid.layout.frame(of: 1).center, to: nil).x, y: 590)
        for i in 1...10 {
            touch(app, .motion, start + (edge - start) * (Double(i) / 10))
            _ = try turn(app, until: { false }, timeout: 0.02)
            if i == 5 {
                // Halfway down the screen: the lifted photo over its neighbours, with its shadow.
                _ = try turn(app, until: { false }, timeout: 0.25)
                try PNGEncoder.write(display.frameBuffer, to: "/tmp/photokiosk-reorder-app-lifted.png")
                let shown = drag.lifted.itemFrame
                let shadow = display.frameBuffer.color(x: Int(shown.midX), y: Int(shown.maxY) + 5)
                #expect(Int(shadow.red) + Int(shadow.green) + Int(shadow.blue) < 3 * 0x14)   // darker than the background
            }
        }
        #expect(drag.autoscroller.isRunning)
        let bottom = grid.maximumContentOffset.y
        #expect(bottom > 700)
        let (t0, y0, f0) = (app.host.loop.now, grid.contentOffset.y, app.host.framesPresented)
        #expect(try turn(app, until: { grid.contentOffset.y >= bottom / 2 }, timeout: 30))
        let (t1, y1, f1) = (app.host.loop.now, grid.contentOffset.y, app.host.framesPresented)
        // A figure for the report, not a check: how fast the real loop autoscrolls and draws.
        print("autoscroll: \((y1 - y0) / (t1 - t0)) px/s (4 px per tick: \((y1 - y0) / 4 / (t1 - t0)) ticks/s), \(Double(f1 - f0) / (t1 - t0)) frames/s")
        // Mid-drag: the carried photo is drawn lifted, with its shadow, under the finger.
        try PNGEncoder.write(display.frameBuffer, to: "/tmp/photokiosk-reorder-app-middrag.png")
        let shown = drag.lifted.itemFrame
        #expect(shown.contains(edge))
        #expect(close(display.frameBuffer.color(x: Int(shown.midX), y: Int(shown.midY)), Self.color(0)))
        #expect(try turn(app, until: { grid.contentOffset.y == bottom }, timeout: 30))
        #expect(grid.contentOffset.y == bottom)                        // clamped, never past the content
        #expect(near(drag.lifted.convert(drag.grab, to: nil), edge))

        // Let go: it lands in the cell under the finger.
        let target = grid.layout.nearestIndex(to: grid.convert(edge, from: nil))
        #expect(target == 18 * 11 + 1)                                 // the last row's second cell: photo 199's place
        #expect(grid.layout.index(at: grid.convert(edge, from: nil)) == target)
        touch(app, .up, edge)
        #expect(!drag.autoscroller.isRunning)
        #expect(try app.host.run(until: { !grid.isReordering }, timeout: 5))
        #expect(paths(app)[target] == first)
        #expect(paths(app)[0].description.hasSuffix("photo001.jpg"))
        #expect(try app.runUntilSettled(timeout: 10))
        let landed = grid.convert(grid.layout.frame(of: target), to: nil)
        #expect(close(display.frameBuffer.color(x: Int(landed.midX), y: Int(landed.midY)), Self.color(0)))
        let saved = try #require(CustomOrder.load(from: state + "/order"))
        #expect(saved.paths == paths(app))

        // A new app over the same state directory shows the same order.
        let expected = paths(app)
        let (again, _) = try makeApp(folder: folder, state: state)
        #expect(try again.runUntilSettled(timeout: 30))
        #expect(paths(again) == expected)
        #expect(paths(again)[target] == first)
    }

    @Test func aCrashBetweenWriteAndRenameKeepsTheOldOrder() throws {
        let folder = try makeFolder(count: 6)
        let state = temporaryDirectory("reorder-crash")
        let (app, _) = try makeApp(folder: folder, state: state)
        #expect(try app.runUntilSettled(timeout: 20))
        app.movePhoto(from: 0, to: 5)
        let old = paths(app)
        #expect(CustomOrder.load(from: state + "/order")?.paths == old)
        // The next save dies after the temporary file is written and synced, before the rename;
        // the torn leftovers of an earlier power cut lie next to it.
        app.customOrder?.failing = { $0 == .rename }
        app.movePhoto(from: 0, to: 3)
        try FileReader.write(Array("# photokiosk custom order v1\n/half/writ".utf8), to: state + "/order.tmp.999999")
        let (again, _) = try makeApp(folder: folder, state: state)
        #expect(try again.runUntilSettled(timeout: 20))
        #expect(paths(again) == old)
    }

    @Test func addedPhotosAppendAndRemovedOnesDropAcrossARestart() throws {
        let folder = try makeFolder(count: 5)
        let state = temporaryDirectory("reorder-merge")
        let (app, _) = try makeApp(folder: folder, state: state)
        #expect(try app.runUntilSettled(timeout: 20))
        app.movePhoto(from: 4, to: 0)                                   // 4 0 1 2 3
        app.movePhoto(from: 2, to: 4)                                   // 4 0 2 3 1
        let names = { (app: KioskApp) in app.photos.photos.map { String($0.path.description.split(separator: "/").last!) } }
        #expect(names(app) == ["photo004.jpg", "photo000.jpg", "photo002.jpg", "photo003.jpg", "photo001.jpg"])
        unlink(folder + "/photo002.jpg")
        let b = Bitmap(width: 16, height: 16)
        Canvas(target: b).clear(.white)
        try FileReader.write(try JPEGEncoder.encode(b, options: .init()), to: folder + "/aaa-new.jpg")
        let (again, _) = try makeApp(folder: folder, state: state)
        #expect(try again.runUntilSettled(timeout: 20))
        #expect(names(again) == ["photo004.jpg", "photo000.jpg", "photo003.jpg", "photo001.jpg", "aaa-new.jpg"])
    }

    /// A photo synced in while a thumbnail is carried (here one whose name sorts first, so it
    /// would shift every index the drag moves between) waits until the drag lands: the drag is
    /// neither cancelled nor misplaced, and the new photo joins the list afterwards.
    @Test func aPhotoArrivingMidDragWaitsUntilTheDropAndTheMoveHolds() throws {
        let folder = try makeFolder(count: 30)
        let state = temporaryDirectory("reorder-arrival")
        let (app, _) = try makeApp(folder: folder, state: state)
        #expect(try app.runUntilSettled(timeout: 20))
        let grid = app.grid
        let before = paths(app)
        let start = grid.convert(grid.layout.frame(of: 0).center, to: nil)
        let target = grid.convert(grid.layout.frame(of: 2).center, to: nil)
        touch(app, .down, start)
        #expect(try app.host.run(until: { grid.isReordering }, timeout: 5))
        let drag = try #require(grid.reorderDrag)
        for i in 1...6 {
            touch(app, .motion, start + (target - start) * (Double(i) / 6))
            _ = try turn(app, until: { false }, timeout: 0.03)
        }
        let b = Bitmap(width: 16, height: 16)
        Canvas(target: b).clear(.white)
        try FileReader.write(try JPEGEncoder.encode(b, options: .init()), to: folder + "/aaa-new.jpg")
        #expect(try turn(app, until: { app.libraryHold.count > 0 }, timeout: 10), "the folder watch saw the new photo")
        _ = try turn(app, until: { false }, timeout: 0.2)
        #expect(grid.isReordering && !drag.isCancelled, "the drag goes on")
        #expect(paths(app) == before, "the list waits for the drop")

        touch(app, .up, target)
        #expect(try app.host.run(until: { !grid.isReordering }, timeout: 5))
        #expect(app.libraryHold.count == 0)
        let after = paths(app)
        #expect(after.count == 31)
        #expect(after[2] == before[0] && after[0] == before[1] && after[1] == before[2], "the move holds")
        #expect(after.last?.description.hasSuffix("aaa-new.jpg") == true, "the new photo follows the person's order")
        #expect(try #require(CustomOrder.load(from: state + "/order")).paths.prefix(3) == after.prefix(3))
    }

    @Test func aLongPressOnAnEmptySpotOffersToResetTheOrder() throws {
        let folder = try makeFolder(count: 5)
        let state = temporaryDirectory("reorder-reset")
        let (app, _) = try makeApp(folder: folder, state: state, thumbnail: 190)
        #expect(try app.runUntilSettled(timeout: 20))
        app.movePhoto(from: 0, to: 4)
        #expect(CustomOrder.load(from: state + "/order") != nil)
        // 4 columns: photo 4 is alone in row 1, the spot right of it is empty.
        let empty = app.grid.convert(app.grid.layout.frame(of: 6).center, to: nil)
        touch(app, .down, empty)
        #expect(try app.host.run(until: { app.resetPrompt != nil }, timeout: 5))
        touch(app, .up, empty)
        let prompt = try #require(app.resetPrompt)
        let confirm = prompt.convert(prompt.confirmButton.center, to: nil)
        touch(app, .down, confirm)
        touch(app, .up, confirm)
        #expect(try app.runUntilSettled(timeout: 10))
        #expect(app.resetPrompt == nil)
        #expect(paths(app).map { String($0.description.suffix(12)) } == (0..<5).map(Self.name))
        #expect(CustomOrder.load(from: state + "/order") == nil)
        #expect(access(state + "/order", F_OK) != 0)
    }

    func close(_ a: Color, _ b: Color) -> Bool {
        abs(Int(a.red) - Int(b.red)) < 24 && abs(Int(a.green) - Int(b.green)) < 24 && abs(Int(a.blue) - Int(b.blue)) < 24
    }

    func near(_ a: Point, _ b: Point) -> Bool { a.distance(to: b) < 1e-6 }
}
