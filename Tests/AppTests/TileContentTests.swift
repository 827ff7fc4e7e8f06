import TestSupport
import Testing
import Dispatch
import Glibc
import Graphics
import Imaging
import Platform
import UI
@testable import PhotoKioskApp
@testable import Widgets

@Suite struct TileContentTests {
    let scratch = ScratchDirectory()

    func temporaryFolder() -> String { scratch.newFolder("apptiles") }

    /// Runs the loop (tile results arrive through its mailbox) until `done` or 20 s.
    func run(_ loop: EventLoop, _ window: Window, until done: () -> Bool) throws -> Bool {
        let end = loop.now + 20
        while loop.now < end {
            window.layoutIfNeeded()
            if done() { return true }
            _ = try loop.runOnce(timeout: 0.01)
        }
        return false
    }

    @Test func photosMoreThanTwiceTheScreenGetTiles() {
        let screen = Size(width: 1920, height: 1080)
        #expect(!TiledPhotoContent.wantsTiles(imageSize: Size(width: 3840, height: 2160), screenSize: screen))
        #expect(TiledPhotoContent.wantsTiles(imageSize: Size(width: 3841, height: 1000), screenSize: screen))
        #expect(TiledPhotoContent.wantsTiles(imageSize: Size(width: 1000, height: 2161), screenSize: screen))
    }

    @Test func tileKeysRoundTrip() {
        let key = TileKey(identity: "dzi:/a#b/c.dzi", level: 12, column: 3, row: 40)
        let back = TileKey(key.imageKey)
        #expect(back?.identity == "dzi:/a#b/c.dzi" && back?.level == 12 && back?.column == 3 && back?.row == 40)
    }

    @Test func serviceLoadsVisibleTilesOnWorkersAndPinsThem() throws {
        let loop = try EventLoop(signals: [])
        let cache = ImageCache(budget: 32 << 20)
        let source = ProceduralTileSource(width: 20000, height: 20000)
        let service = TileService(source: source, cache: cache, logger: .init(label: "test"),
                                  deliver: { [mailbox = loop.mailbox] block in mailbox.post(block) })
        let window = Window(size: Size(width: 512, height: 512), clock: ManualClock(now: 1))
        let view = TiledImageView(frame: window.bounds)
        window.addSubview(view)
        view.provider = service
        #expect(try run(loop, window) { service.pendingLoads == 0 && view.missingTileCount == 0 })
        #expect(view.liveTileCount > 0)
        #expect(cache.pinnedBytes > 0)
        // Zoom to 1:1: the new visible tiles load, the fit tiles are unpinned, never more than 36 live.
        view.zoom(toScale: 1, centeredAt: Point(x: 7000, y: 9000), animated: false)
        #expect(view.resolution == 0)
        #expect(try run(loop, window) { service.pendingLoads == 0 && view.missingTileCount == 0 })
        #expect(view.liveTileCount <= 36)
        let shown = try #require(service.tile(TileID(resolution: 0, column: 7000 / 256, row: 9000 / 256)))
        let expected = try source.tile(level: 15, column: 7000 / 256, row: 9000 / 256)
        #expect(shown.bitmap.pixel(x: 128, y: 200) == expected.pixel(x: 128, y: 200))
        let rendered = Bitmap(width: 512, height: 512)
        window.render(into: Canvas(target: rendered))
        // The screen centre shows image point (7000, 9000) in its cell's colour.
        #expect(rendered.color(x: 256, y: 256 + 40) == source.color(atImagePoint: 7000, 9040))
        #expect(service.statistics.decodesStarted > 0)
    }

    /// Tiles on screen that do not fit the cache's budget are held by the service: everything
    /// shows, and nothing is decoded over and over.
    @Test func aBudgetSmallerThanTheScreenStillShowsEveryTileOnce() throws {
        let loop = try EventLoop(signals: [])
        let cache = ImageCache(budget: 600 << 10)   // about two tiles
        let service = TileService(source: ProceduralTileSource(width: 20000, height: 20000), cache: cache,
                                  logger: .init(label: "test"),
                                  deliver: { [mailbox = loop.mailbox] block in mailbox.post(block) })
        let window = Window(size: Size(width: 512, height: 512), clock: ManualClock(now: 1))
        let view = TiledImageView(frame: window.bounds)
        window.addSubview(view)
        view.provider = service
        view.zoom(toScale: 1, centeredAt: Point(x: 9000, y: 9000), animated: false)
        #expect(try run(loop, window) { service.pendingLoads == 0 && view.missingTileCount == 0 })
        let decodes = service.statistics.decodesStarted
        #expect(decodes <= view.liveTileCount + 12)
        for _ in 0..<20 {
            window.layoutIfNeeded()
            _ = try loop.runOnce(timeout: 0.005)
        }
        #expect(service.statistics.decodesStarted == decodes)
        #expect(cache.totalBytes <= cache.budget)
    }

    @Test func bigPhotoShowsAtOnceThenSwitchesToItsCachedPyramid() throws {
        let folder = temporaryFolder()
        let path = folder + "/big.jpg"
        let photo = Bitmap(width: 2400, height: 1500)
        let canvas = Canvas(target: photo)
        for i in 0..<6 {
            canvas.fill(Rect(x: i * 400, y: 0, width: 400, height: 1500),
                        color: [Color.red, .green, .blue, .white, Color(rgb: 0xFFFF00), Color(rgb: 0x00FFFF)][i])
        }
        try FileReader.write(try JPEGEncoder.encode(photo, quality: 92), to: path)
        let loop = try EventLoop(signals: [])
        let cache = ImageCache(budget: 32 << 20)
        let pyramids = PyramidCache(directory: folder + "/pyramids")
        let deliver: ImageLoader.Delivery = { [mailbox = loop.mailbox] block in mailbox.post(block) }
        let window = Window(size: Size(width: 600, height: 400), clock: ManualClock(now: 1))
        #expect(TiledPhotoContent.wantsTiles(imageSize: photo.size, screenSize: window.bounds.size))

        let content = try TiledPhotoContent(path: RawPath(path), cache: cache, pyramids: pyramids, logger: .init(label: "test"), deliver: deliver)
        #expect(!content.isPyramidReady)
        content.view.frame = window.bounds
        window.addSubview(content.view)
        var reported: Result<String, ImagingError>?
        content.onPyramid = { reported = $0 }
        content.start()
        content.view.zoom(toScale: 1, centeredAt: Point(x: 1000, y: 700), animated: false)
        #expect(try run(loop, window) { reported != nil && content.isSettled })
        #expect(content.isPyramidReady)
        let descriptor = try #require(try reported?.get())
        #expect(pyramids.existing(for: RawPath(path)) == descriptor)
        // The switch kept the zoom and position, and the screen shows the photo's stripes.
        #expect(abs(content.view.effectiveScale - 1) < 1e-9)
        #expect(content.view.imagePoint(at: Point(x: 300, y: 200)).distance(to: Point(x: 1000, y: 700)) < 1e-6)
        let rendered = Bitmap(width: 600, height: 400)
        window.render(into: Canvas(target: rendered))
        let left = rendered.color(x: 50, y: 200), right = rendered.color(x: 550, y: 200)   // image x 750 and 1250
        #expect(left.green > 200 && left.red < 60 && left.blue < 60)
        #expect(right.red > 200 && right.green > 200 && right.blue > 200)

        // Next time the pyramid is there from the start.
        let again = try TiledPhotoContent(path: RawPath(path), cache: cache, pyramids: pyramids, logger: .init(label: "test"), deliver: deliver)
        #expect(again.isPyramidReady)
        #expect(again.service.source is DeepZoomTileSource)
    }
}

/// Pyramids build one at a time on one thread; a build whose page went away before it started
/// is dropped.
@Suite struct PyramidBuildQueueTests {
    final class Outcomes: @unchecked Sendable {
        private let lock = DispatchSemaphore(value: 1)
        private var values: [String: Result<String, ImagingError>] = [:]
        func set(_ name: String, _ result: Result<String, ImagingError>) {
            lock.wait()
            values[name] = result
            lock.signal()
        }
        func get(_ name: String) -> Result<String, ImagingError>? {
            lock.wait()
            defer { lock.signal() }
            return values[name]
        }
    }

    @Test func buildsInOrderAndDropsCancelledOnes() throws {
        let folder = makeTemporaryDirectory("pyramid-queue")
        defer { removeTree(RawPath(folder)) }
        let pyramids = PyramidCache(directory: folder + "/pyramids")
        for name in ["a", "b"] {
            try FileReader.write(try JPEGEncoder.encode(Bitmap(width: 700, height: 500), quality: 90), to: folder + "/\(name).jpg")
        }
        let outcomes = Outcomes()
        let dropped = StopFlag()
        dropped.set()   // the page went away before the build started
        let done = DispatchSemaphore(value: 0)
        PyramidBuildQueue.shared.enqueue(.init(path: RawPath(folder + "/a.jpg"), pyramids: pyramids, cancelled: dropped) { outcomes.set("a", $0) })
        PyramidBuildQueue.shared.enqueue(.init(path: RawPath(folder + "/b.jpg"), pyramids: pyramids, cancelled: StopFlag()) {
            outcomes.set("b", $0)
            done.signal()
        })
        #expect(done.wait(timeout: .now() + 60) == .success)
        // First in, first out: "a" was taken before "b" and dropped.
        #expect(outcomes.get("a") == nil)
        #expect(pyramids.existing(for: RawPath(folder + "/a.jpg")) == nil)
        let descriptor = try #require(try outcomes.get("b")?.get())
        #expect(pyramids.existing(for: RawPath(folder + "/b.jpg")) == descriptor)
    }
}

@Suite struct TiledPhotoAttachmentTests {
    @Test func attachingCoversThePageAndLendsItsZoomGestures() throws {
        let scratch = ScratchDirectory()
        let folder = scratch.path.description
        let path = folder + "/big.jpg"
        let photo = Bitmap(width: 1800, height: 1200)
        Canvas(target: photo).clear(Color(rgb: 0x3366CC))
        try FileReader.write(try JPEGEncoder.encode(photo), to: path)
        let loop = try EventLoop(signals: [])
        let window = Window(size: Size(width: 400, height: 300), clock: ManualClock(now: 1))
        let page = ScrollView(frame: window.bounds)
        window.addSubview(page)
        let content = try TiledPhotoContent(path: RawPath(path), cache: ImageCache(budget: 16 << 20), pyramids: nil,
                                            logger: .init(label: "test"),
                                            deliver: { [mailbox = loop.mailbox] block in mailbox.post(block) })
        let attachment = TiledPhotoAttachment(content: content, over: page, disabling: [page.pinchGestureRecognizer])
        #expect(content.view.superview === page)
        #expect(content.view.frame == page.bounds)
        #expect(!page.pinchGestureRecognizer.isEnabled)
        window.layoutIfNeeded()
        #expect(abs(content.view.effectiveScale - 400.0 / 1800) < 1e-9)   // 1800x1200 fitted in 400x300
        // A touch on the page lands in the tiled view.
        #expect(window.hitTest(Point(x: 200, y: 150))?.isDescendant(of: content.view) == true)
        attachment.detach()
        #expect(content.view.superview == nil)
        #expect(page.pinchGestureRecognizer.isEnabled)
    }
}

@Suite struct TiledDeepZoomOverlapTests {
    /// A pyramid laid out as libvips dzsave writes it (254-pixel tiles, overlap 1), every level,
    /// shown through the service and the tiled view at 1:1: the screen is the photo, pixel for
    /// pixel, across tile seams.
    @Test func overlappingTilesRenderSeamlessly() throws {
        let scratch = ScratchDirectory()
        let folder = scratch.path.description
        let width = 900, height = 700
        let original = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                original.setPixel(x: x, y: y, Color(red: UInt8(x * 255 / width), green: UInt8(y * 255 / height),
                                                    blue: UInt8((x ^ y) & 0xFF)).pixel)
            }
        }
        let layout = DeepZoomLayout(width: width, height: height, tileSize: 254, overlap: 1)
        mkdir(folder + "/p_files", 0o755)
        for level in 0...layout.maxLevel {
            let size = layout.levelSize(level)
            let image = Bitmap(width: size.width, height: size.height)
            Canvas(target: image).draw(original, in: Rect(x: 0, y: 0, width: size.width, height: size.height), quality: .good)
            mkdir(folder + "/p_files/\(level)", 0o755)
            try writeDeepZoomLevel(image, level: level, layout: layout, into: folder + "/p_files/\(level)")
        }
        try writeDeepZoomDescriptor(layout, to: folder + "/p.dzi")

        let loop = try EventLoop(signals: [])
        let service = TileService(source: try DeepZoomTileSource(descriptorPath: folder + "/p.dzi"),
                                  cache: ImageCache(budget: 16 << 20), logger: .init(label: "test"),
                                  deliver: { [mailbox = loop.mailbox] block in mailbox.post(block) })
        let window = Window(size: Size(width: 500, height: 400), clock: ManualClock(now: 1))
        let view = TiledImageView(frame: window.bounds)
        window.addSubview(view)
        view.provider = service
        view.zoom(toScale: 1, centeredAt: Point(x: 504, y: 508), animated: false)   // seams at 254 and 508
        let end = loop.now + 20
        while loop.now < end && !(service.pendingLoads == 0 && view.missingTileCount == 0) {
            window.layoutIfNeeded()
            _ = try loop.runOnce(timeout: 0.01)
        }
        #expect(view.missingTileCount == 0)
        let screen = Bitmap(width: 500, height: 400)
        window.render(into: Canvas(target: screen))
        let origin = view.imagePoint(at: .zero)
        #expect(origin == Point(x: 254, y: 300))   // the bottom edge limits the offset
        var mismatches = 0
        for y in 0..<400 {
            for x in 0..<500 where screen.pixel(x: x, y: y) & 0xFFFFFF != original.pixel(x: 254 + x, y: 300 + y) & 0xFFFFFF {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }
}
