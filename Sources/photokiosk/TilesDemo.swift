import Basics
import ArgumentParser
import Glibc
import Graphics
import Imaging
import Logging
import PhotoKioskApp
import Platform
import UI
import Widgets
import SystemAccess

struct TilesDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract: "A 20000x20000 procedural image (or a Deep Zoom pyramid) to pan and zoom from fit to 1:1 and beyond.",
        discussion: """
        Pinch zooms around the fingers, double tap zooms in 2x (stopping at 1:1), at the maximum \
        back to fit; a two-finger tap zooms out. Headless, it writes one PNG per --scales entry; \
        --benchmark runs a scripted zoom and pan and prints frame times, live tiles and peak memory.
        """)

    @Option(name: .customLong("display"), help: "auto, drm, fbdev or headless.") var backend: KioskConfig.DisplayBackend = .auto
    @Option(help: "0, 90, 180 or 270.") var rotation: KioskConfig.Rotation = .none
    @Option(help: "Headless screen size WIDTHxHEIGHT (default: 1920x1080).", transform: ArgumentValues.mode) var size: KioskConfig.DisplayMode = .init(width: 1920, height: 1080)
    @Option(help: "A .dzi pyramid to show instead of the procedural image.") var dzi: String?
    @Option(help: "Headless PNGs: OUT-SCALE.png for each scale.") var out: String = "photokiosk-demo-tiles"
    @Option(help: "Headless: comma-separated screen pixels per image pixel (fit = 0).") var scales: String = "0,0.25,1,3"
    @Option(parsing: .unconditional, help: "Memory for decoded tiles, MB (default: 64).", transform: ArgumentValues.wholeNumber) var cacheMb: Int = 64
    @Flag(help: "Headless: scripted zoom and pan; print frame times, live tiles and peak RSS.") var benchmark = false

    func run() throws {
        let logger = Bootstrap.logger(level: .info)
        let loop = try EventLoop()
        let opened = try Bootstrap.openDemoScreen(backend: backend, rotation: rotation, headlessSize: size, logger: logger)
        let host = ScreenHost(display: opened.display, loop: loop, logger: logger)
        let source: any TileSource = try dzi.map { try DeepZoomTileSource(descriptorPath: $0) } ?? ProceduralTileSource()
        let cache = ImageCache(budget: cacheMb << 20, onPressure: { logger.notice("tile cache: \($0)") })
        let service = TileService(source: source, cache: cache, logger: logger,
                                  deliver: { [mailbox = loop.mailbox] block in mailbox.post(block) })
        let view = TiledImageView(frame: Rect(size: opened.display.size))
        view.provider = service
        host.window.addSubview(view)
        host.onResize = { view.frame = Rect(size: $0) }
        try host.attachDisplay()

        guard let headless = opened.display as? HeadlessDisplay else {
            let input = try openInput(.auto, mapping: opened.mapping, logger: logger) { [weak host] in host?.handle($0) }
            try input?.attach(to: loop)
            defer { input?.close() }
            try host.run()
            return
        }
        let settled = { service.pendingLoads == 0 && view.missingTileCount == 0 }
        let imageCentre = Point(x: service.imageSize.width * 0.37, y: service.imageSize.height * 0.61)
        if benchmark {
            try TilesBenchmark(host: host, view: view, service: service, cache: cache).run(around: imageCentre)
            return
        }
        for text in scales.split(separator: ",") {
            guard let scale = Double(text) else { throw ValidationError("--scales: \(text) is not a number") }
            view.zoom(toScale: scale <= 0 ? view.fitScale : scale, centeredAt: imageCentre, animated: false)
            if !(try host.run(until: settled, timeout: 60)) { logger.warning("tiles still loading after 60 s") }
            let path = "\(out)-\(text).png"
            try PNGEncoder.write(headless.frameBuffer, to: path)
            print("\(path): scale \(view.effectiveScale), resolution \(view.resolution), \(view.liveTileCount) live tiles")
        }
    }
}

/// A scripted session on the headless screen: animated zooms from fit to 1:1 and 4x, pans at
/// each, back to fit; reports render times per frame, the most live tiles and peak memory.
struct TilesBenchmark {
    let host: ScreenHost
    let view: TiledImageView
    let service: TileService
    let cache: ImageCache

    func run(around point: Point) throws {
        var frameTimes: [Double] = []
        var mostTiles = 0
        var visited: [String] = []
        let bound = TileGrid.liveTileBound(viewport: view.bounds.size, tileSize: service.tileSize)
        func animate(_ step: () -> Void) throws {
            step()
            let end = host.loop.now + 30
            while host.loop.now < end {
                let busy = view.scrollView.isMoving || view.scrollView.isZooming
                if !busy && service.pendingLoads == 0 && view.missingTileCount == 0 && !host.window.needsDisplay { break }
                let wait = host.window.nextDeadline.map { max(0, $0 - host.loop.now) } ?? 0.005
                _ = try host.loop.runOnce(timeout: min(wait, 0.02))
                let before = host.framesPresented
                let t0 = host.loop.now
                host.pump()
                if host.framesPresented > before { frameTimes.append(host.loop.now - t0) }
                mostTiles = max(mostTiles, view.liveTileCount)
            }
        }
        /// Two fingers around the centre going from `d0` to `d1` apart over `frames` frames.
        func pinch(from d0: Double, to d1: Double, frames: Int) throws {
            let c = Point(x: view.bounds.midX, y: view.bounds.midY)
            func fingers(_ d: Double, _ phase: UI.TouchPhase) -> [TouchEvent] {
                [TouchEvent(slot: 0, phase: phase, location: c - Point(x: d / 2, y: 0), timestamp: host.loop.now),
                 TouchEvent(slot: 1, phase: phase, location: c + Point(x: d / 2, y: 0), timestamp: host.loop.now)]
            }
            host.window.dispatch(fingers(d0, UI.TouchPhase.began))
            for i in 1...frames {
                _ = try host.loop.runOnce(timeout: 1.0 / 60)
                let d = d0 + (d1 - d0) * Double(i) / Double(frames)
                host.window.dispatch(fingers(d, UI.TouchPhase.moved))
                let before = host.framesPresented
                let t0 = host.loop.now
                host.pump()
                if host.framesPresented > before { frameTimes.append(host.loop.now - t0) }
                mostTiles = max(mostTiles, view.liveTileCount)
            }
            try animate { host.window.dispatch(fingers(d1, UI.TouchPhase.ended)) }
            visited.append("pinch→\(decimalText(view.effectiveScale, places: 3))")
        }
        let start = host.loop.now
        try animate {}
        // Pinches: out of fit by 8x in two steps, then back in.
        try pinch(from: 100, to: 500, frames: 30)
        try pinch(from: 100, to: 400, frames: 30)
        try pinch(from: 500, to: 100, frames: 30)
        var p = point
        for scale in [0.1, 0.5, 1.0, 4.0] {
            try animate { view.zoom(toScale: scale, centeredAt: p, animated: true) }
            visited.append("zoom→\(decimalText(view.effectiveScale, places: 3))")
            for shift in [Point(x: 600, y: 0), Point(x: 0, y: 500), Point(x: -600, y: -500)] {
                let offset = view.scrollView.clampedOffset(view.scrollView.contentOffset + shift)
                try animate { view.scrollView.setContentOffset(offset, animated: true) }
            }
            p = view.imagePoint(at: Point(x: view.bounds.midX, y: view.bounds.midY))
        }
        try animate { view.zoom(toScale: view.fitScale, centeredAt: p, animated: true) }
        let sorted = frameTimes.sorted()
        func ms(_ v: Double) -> String { decimalText(v * 1000, places: 1) }
        let mean = frameTimes.reduce(0, +) / Double(max(1, frameTimes.count))
        print("""
        tiles benchmark (\(Int(view.bounds.width))x\(Int(view.bounds.height)), \(Int(service.imageSize.width))x\(Int(service.imageSize.height)) image):
          run \(decimalText(host.loop.now - start, places: 1)) s, \(frameTimes.count) frames drawn
          scales (screen px per image px, fit \(decimalText(view.fitScale, places: 3))): \(visited.joined(separator: " "))
          frame render+present ms: mean \(ms(mean)), median \(ms(sorted.isEmpty ? 0 : sorted[sorted.count / 2])), \
        p95 \(ms(sorted.isEmpty ? 0 : sorted[sorted.count * 95 / 100])), max \(ms(sorted.last ?? 0))
          most live tiles \(mostTiles) (bound \(bound)); tile decodes \(service.statistics.decodesStarted), \
        cancelled before start \(service.statistics.cancelledBeforeStart)
          tile cache \(cache.totalBytes >> 20) MB of \(cache.budget >> 20) MB
          peak RSS (VmHWM) \(Self.status("VmHWM")), now (VmRSS) \(Self.status("VmRSS"))
        """)
    }

    static func status(_ field: String) -> String {
        // /proc files report size 0, so read until end of file instead of by size.
        guard let bytes = try? FileSystemCalls.contents(of: "/proc/self/status", limit: 1 << 20) else { return "?" }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix(field + ":") {
            return line.dropFirst(field.count + 1).split(separator: " ").joined(separator: " ")
        }
        return "?"
    }
}
