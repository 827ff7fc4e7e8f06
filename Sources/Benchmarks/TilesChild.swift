import Glibc
import Graphics
import Imaging
import Logging
import PhotoKioskApp
import Platform
import SystemAccess
import UI
import Widgets

/// The tiled image measured in a fresh child process, set up as `photokiosk demo tiles` sets it
/// up (TiledImageView + TileService over the procedural 20000x20000 image, 64 MB tile cache) on
/// a headless 1920x1080 screen, and driven like its `--benchmark` script.
///
/// Modes write "key=value" lines to the result file:
/// - pinch: one `frame_cpu=` line per frame drawn while two fingers pinch (this thread's CPU
///   for the frame: layout, tile requests, compositing, present), out of fit and back
/// - zoom:  fit → 1:1 (animated), pans at 1:1, back to fit; peak RSS is the figure
final class TilesChild {
    let loop: EventLoop
    let host: ScreenHost
    let view: TiledImageView
    let service: TileService
    var results: [(String, Double)] = []
    var mostTiles = 0

    init() throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        loop = try EventLoop(signals: [])
        let display = HeadlessDisplay(width: 1920, height: 1080)
        host = ScreenHost(display: display, loop: loop, logger: logger)
        let cache = ImageCache(budget: 64 << 20, onPressure: { _ in })
        service = TileService(source: ProceduralTileSource(), cache: cache, logger: logger,
                              deliver: { [mailbox = loop.mailbox] block in mailbox.post(block) })
        view = TiledImageView(frame: Rect(size: display.size))
        view.provider = service
        host.window.addSubview(view)
        try host.attachDisplay()
    }

    func record(_ key: String, _ value: Double) { results.append((key, value)) }

    /// One pump, timed in this thread's CPU when it presented a frame.
    private func pump() -> Double? {
        let before = host.framesPresented
        let t0 = SystemClock.threadCPUSeconds()
        host.pump()
        let spent = SystemClock.threadCPUSeconds() - t0
        mostTiles = max(mostTiles, view.liveTileCount)
        return host.framesPresented > before ? spent : nil
    }

    /// Runs the loop until animations end, tiles are in and nothing needs drawing (30 s at most).
    private func settle(after step: () -> Void = {}) throws {
        step()
        let end = loop.now + 30
        while loop.now < end {
            let busy = view.scrollView.isMoving || view.scrollView.isZooming
            if !busy && service.pendingLoads == 0 && view.missingTileCount == 0 && !host.window.needsDisplay { break }
            let wait = host.window.nextDeadline.map { max(0, $0 - loop.now) } ?? 0.005
            try loop.runOnce(timeout: min(wait, 0.02))
            _ = pump()
        }
    }

    /// Two fingers around the screen centre going from `d0` to `d1` px apart over `frames`
    /// frames at 60 Hz; returns the CPU time of each frame drawn mid-pinch.
    private func pinch(from d0: Double, to d1: Double, frames: Int) throws -> [Double] {
        let c = Point(x: view.bounds.midX, y: view.bounds.midY)
        func fingers(_ d: Double, _ phase: UI.TouchPhase) -> [TouchEvent] {
            [TouchEvent(slot: 0, phase: phase, location: c - Point(x: d / 2, y: 0), timestamp: loop.now),
             TouchEvent(slot: 1, phase: phase, location: c + Point(x: d / 2, y: 0), timestamp: loop.now)]
        }
        var times: [Double] = []
        host.window.dispatch(fingers(d0, .began))
        for i in 1...frames {
            try loop.runOnce(timeout: 1.0 / 60)
            host.window.dispatch(fingers(d0 + (d1 - d0) * Double(i) / Double(frames), .moved))
            if let t = pump() { times.append(t) }
        }
        try settle { host.window.dispatch(fingers(d1, .ended)) }
        return times
    }

    /// Out of fit 5x and then 4x more (to about 1:1), back in 5x: the demo's pinches, 60 frames each.
    func measurePinch() throws {
        try settle()
        for (d0, d1) in [(100.0, 500.0), (100.0, 400.0), (500.0, 100.0)] {
            for t in try pinch(from: d0, to: d1, frames: 60) { record("frame_cpu", t) }
        }
        record("most_tiles", Double(mostTiles))
    }

    /// Fit → 1:1 centred on a point of the image, three pans at 1:1, back to fit; all animated.
    func measureZoom() throws {
        try settle()
        let t0 = loop.now
        let point = Point(x: service.imageSize.width * 0.37, y: service.imageSize.height * 0.61)
        try settle { view.zoom(toScale: 1.0, centeredAt: point, animated: true) }
        record("scale_in", view.effectiveScale)
        for shift in [Point(x: 600, y: 0), Point(x: 0, y: 500), Point(x: -600, y: -500)] {
            let offset = view.scrollView.clampedOffset(view.scrollView.contentOffset + shift)
            try settle { view.scrollView.setContentOffset(offset, animated: true) }
        }
        let centre = view.imagePoint(at: Point(x: view.bounds.midX, y: view.bounds.midY))
        try settle { view.zoom(toScale: view.fitScale, centeredAt: centre, animated: true) }
        record("scale_out", view.effectiveScale)
        record("seconds", loop.now - t0)
        record("most_tiles", Double(mostTiles))
        record("tile_decodes", Double(service.statistics.decodesStarted))
    }

    func write(to path: String) {
        if let peak = AppChild.peakRSS() { results.append(("peak_rss", peak)) }
        writeKeyValues(results, to: path)
    }
}

/// Every value of `key` in "key=value" lines (a child that reports one line per frame).
func values(of key: String, in text: String) -> [Double] {
    text.split(separator: "\n").compactMap { line in
        let parts = line.split(separator: "=", maxSplits: 1)
        return parts.count == 2 && parts[0] == key ? Double(parts[1]) : nil
    }
}
