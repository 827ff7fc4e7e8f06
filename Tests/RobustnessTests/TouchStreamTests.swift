import Basics
import Graphics
import Imaging
import Platform
import TestSupport
import Testing
@testable import PhotoKioskApp
@testable import UI
import Widgets

/// A provider whose thumbnails are always there (the stream test is about touches, not files).
final class SolidThumbnails: ThumbnailProvider {
    let bitmap: Bitmap = {
        let b = Bitmap(width: 8, height: 8)
        Canvas(target: b).clear(.blue)
        return b
    }()
    var wanted: [Int: Double] = [:]
    func thumbnailState(at index: Int, edge: Int) -> ThumbnailState {
        index % 17 == 0 ? .failed(reason: "broken") : index % 5 == 0 ? .loading : .image(bitmap)
    }
    func updateWantedThumbnails(_ distances: [Int: Double], edge: Int) { wanted = distances }
}

/// Random finger streams: several fingers, cancels, events for slots that are not down, a slot
/// reused without a lift, points outside the screen, timestamps that go backwards.
struct TouchStorm {
    var random: SeededRandom
    let size: Size
    var down: [Int: Point] = [:]
    var time = 0.0
    private(set) var eventCount = 0

    init(seed: UInt64, size: Size) {
        random = SeededRandom(seed: seed)
        self.size = size
    }

    mutating func point() -> Point {
        Point(x: Double.random(in: -40...(size.width + 40), using: &random),
              y: Double.random(in: -40...(size.height + 40), using: &random))
    }

    /// The events of one input frame.
    mutating func frame(now: Double) -> [TouchEvent] {
        time = now
        var events: [TouchEvent] = []
        let actions = Int.random(in: 1...3, using: &random)
        for _ in 0..<actions {
            let slot = Int.random(in: 0..<6, using: &random)
            // Mostly consistent streams, sometimes nonsense.
            var stamp = now
            if Int.random(in: 0..<50, using: &random) == 0 { stamp -= Double.random(in: 0...0.5, using: &random) }
            let roll = Int.random(in: 0..<100, using: &random)
            if let location = down[slot] {
                switch roll {
                case 0..<70:
                    let step = Int.random(in: 0..<20, using: &random) == 0 ? 300.0 : 25.0
                    var next = location + Point(x: Double.random(in: -step...step, using: &random),
                                                y: Double.random(in: -step...step, using: &random))
                    if Int.random(in: 0..<200, using: &random) == 0 { next = point() }
                    down[slot] = next
                    events.append(TouchEvent(slot: slot, phase: .moved, location: next, timestamp: stamp))
                case 70..<88:
                    down[slot] = nil
                    events.append(TouchEvent(slot: slot, phase: .ended, location: location, timestamp: stamp))
                case 88..<95:
                    down[slot] = nil
                    events.append(TouchEvent(slot: slot, phase: .cancelled, location: location, timestamp: stamp))
                default:
                    // The slot is reused by a new finger without its lift ever arriving.
                    let p = point()
                    down[slot] = p
                    events.append(TouchEvent(slot: slot, phase: .began, location: p, timestamp: stamp))
                }
            } else {
                switch roll {
                case 0..<80:
                    let p = point()
                    down[slot] = p
                    events.append(TouchEvent(slot: slot, phase: .began, location: p, timestamp: stamp))
                case 80..<90:
                    events.append(TouchEvent(slot: slot, phase: .moved, location: point(), timestamp: stamp))
                case 90..<95:
                    events.append(TouchEvent(slot: slot, phase: .ended, location: point(), timestamp: stamp))
                default:
                    events.append(TouchEvent(slot: slot, phase: .cancelled, location: point(), timestamp: stamp))
                }
            }
        }
        eventCount += events.count
        return events
    }

    /// Lifts (or cancels) every finger still down.
    mutating func liftAll(now: Double) -> [TouchEvent] {
        let events = down.keys.sorted().map { slot in
            TouchEvent(slot: slot, phase: Bool.random(using: &random) ? .ended : .cancelled, location: down[slot]!, timestamp: now)
        }
        down = [:]
        eventCount += events.count
        return events
    }
}

@Suite struct TouchStreamTests {
    /// Grid on the left; on the right an album-like pager of zoomable pages (nested scroll views).
    final class Scene {
        let clock = ManualClock(now: 1000)
        let window: Window
        let grid = ThumbnailGridView(frame: Rect(x: 0, y: 0, width: 400, height: 600))
        let provider = SolidThumbnails()
        let pager = ScrollView(frame: Rect(x: 400, y: 0, width: 400, height: 600))
        var pages: [ScrollView] = []
        var selected: [Int] = []

        init() {
            window = Window(size: Size(width: 800, height: 600), clock: clock)
            grid.preferredCellSize = 120
            grid.provider = provider
            grid.itemCount = 300
            grid.onSelect = { [unowned self] index in selected.append(index) }
            window.addSubview(grid)
            pager.isPagingEnabled = true
            pager.contentSize = Size(width: 400 * 5, height: 600)
            for i in 0..<5 {
                let page = ScrollView(frame: Rect(x: Double(i) * 400, y: 0, width: 400, height: 600))
                let photo = View(frame: Rect(x: 0, y: 0, width: 400, height: 600))
                page.addSubview(photo)
                page.viewForZooming = photo
                page.minimumZoomScale = 1
                page.maximumZoomScale = 4
                pager.addSubview(page)
                pages.append(page)
            }
            window.addSubview(pager)
        }

        var scrollViews: [ScrollView] { [grid, pager] + pages }

        func step(_ events: [TouchEvent]) {
            clock.advance(by: 1.0 / 60)
            if !events.isEmpty { window.dispatch(events) }
            window.advance(to: clock.now)
            // What a render does first; the full draw runs now and then (it is the slow part).
            window.layoutIfNeeded()
        }

        /// Runs animations until nothing is scheduled (at most `limit` seconds); false if still busy.
        func settle(limit: Double = 30) -> Bool {
            let end = clock.now + limit
            while window.nextDeadline != nil, clock.now < end { step([]) }
            return window.nextDeadline == nil
        }
    }

    static func within(_ value: Double, _ low: Double, _ high: Double) -> Bool {
        value >= low - 0.5 && value <= high + 0.5
    }

    /// Checked after every frame: nothing is NaN, zoom stays near its limits (rubber band).
    static func checkMoving(_ scene: Scene) -> String? {
        for s in scene.scrollViews {
            let o = s.contentOffset
            guard o.x.isFinite, o.y.isFinite, s.zoomScale.isFinite else { return "non-finite state in \(s)" }
            guard s.zoomScale >= s.minimumZoomScale * 0.5 - 1e-9, s.zoomScale <= s.maximumZoomScale * 2 + 1e-9 else {
                return "zoom \(s.zoomScale) far outside \(s.minimumZoomScale)...\(s.maximumZoomScale)"
            }
        }
        return nil
    }

    /// Checked after all fingers lifted and motion settled.
    static func checkSettled(_ scene: Scene) -> String? {
        guard scene.window.activeTouches.isEmpty else { return "touches stuck down: \(scene.window.activeTouches.map(\.slot))" }
        for (i, s) in scene.scrollViews.enumerated() {
            let name = ["grid", "pager", "page"][min(i, 2)]
            if s.isTracking || s.isDragging || s.isZooming { return "still tracking after lift" }
            let o = s.contentOffset, lo = s.minimumContentOffset, hi = s.maximumContentOffset
            guard within(o.x, lo.x, hi.x), within(o.y, lo.y, hi.y) else { return "\(name) offset \(o) outside \(lo)...\(hi)" }
            guard within(s.zoomScale, s.minimumZoomScale, s.maximumZoomScale) else { return "zoom \(s.zoomScale) settled outside limits" }
        }
        // Resting between pages after a touch stopped a snap is the album's PageSnapKeeper's job
        // (AlbumSnapKeeperTests); this plain paging scroll view only has to stay in bounds.
        return nil
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func hundredThousandRandomEventsKeepEveryInvariant(seed: UInt64) throws {
        let scene = Scene()
        var storm = TouchStorm(seed: seed, size: scene.window.bounds.size)
        var frames = 0
        while storm.eventCount < 40_000 {
            scene.step(storm.frame(now: scene.clock.now))
            frames += 1
            if let problem = Self.checkMoving(scene) {
                Issue.record("seed \(seed) frame \(frames): \(problem)")
                return
            }
            if frames % 150 == 0 {
                if frames % 600 == 0 { scene.grid.itemCount = Int.random(in: 0...400, using: &storm.random); scene.grid.reloadData() }
                scene.step(storm.liftAll(now: scene.clock.now))
                #expect(scene.settle(), "seed \(seed): still animating 30 s after the lift")
                if let problem = Self.checkSettled(scene) {
                    Issue.record("seed \(seed) frame \(frames): \(problem)")
                    return
                }
                // Drawing after the storm must not trap either.
                if frames % 1500 == 0 {
                    _ = scene.window.render(into: Canvas(target: Bitmap(width: 800, height: 600)))
                }
            }
        }
        scene.step(storm.liftAll(now: scene.clock.now))
        #expect(scene.settle())
        #expect(Self.checkSettled(scene) == nil)
        #expect(storm.eventCount >= 40_000)
    }

    /// The real app (event-loop clock, input translator, loader) under a shorter storm.
    @Test func kioskAppSurvivesAStormAndSettles() throws {
        let folder = makeTemporaryDirectory("storm")
        defer { removeTree(folder) }
        for i in 0..<40 {
            try FileReader.write(try solidPhoto(HostileFiles.goodColors[i % 6]), to: folder + "/p\(1000 + i).jpg")
        }
        let capture = LogCapture()
        let (app, _) = try makeHeadlessApp(folders: [folder], width: 800, height: 600, thumbnailSize: 150, logger: capture.logger)
        #expect(try app.runUntilSettled(timeout: 30))
        var storm = TouchStorm(seed: 42, size: Size(width: 800, height: 600))
        for round in 0..<50 {
            try app.play(&storm, frames: 60)
            let now = app.liftEveryFinger(of: &storm)
            if round % 10 == 9 { app.handle(.key(.escape, pressed: true, time: now)) }
            _ = try app.runUntilSettled(timeout: 20)
            #expect(app.window.activeTouches.isEmpty, "round \(round)")
        }
        app.closePhoto()
        #expect(try app.runUntilSettled(timeout: 30))
        let grid = app.grid
        #expect(Self.within(grid.contentOffset.y, grid.minimumContentOffset.y, grid.maximumContentOffset.y))
        #expect(storm.eventCount > 5000)
    }
}
