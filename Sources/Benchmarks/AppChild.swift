import Glibc
import Graphics
import Imaging
import Logging
import PhotoKioskApp
import Platform
import SystemAccess
import SystemPackage

/// The app measured in a fresh child process (so peak RSS, cold caches and CPU are its own):
/// KioskApp on a headless 1920x1080 screen, driven like `ScreenHost.run()` drives it — wait for
/// the loop, then pump — with scripted touches fed through the same `handle(_:)` as libinput's.
///
/// Modes print "key=value" lines to the result file:
/// - start:   time to the first frame showing photos and to every visible thumbnail shown
/// - idle:    CPU share of a settled, static screen
/// - fling:   CPU share and frames while the grid is flung up and down continuously
/// - latency: touch event timestamp → frame presented, during a continuous drag
final class AppChild {
    let startTime = SystemClock.monotonicSeconds()
    let app: KioskApp
    let loop: EventLoop
    let display: HeadlessDisplay
    let startup: LibraryStartup
    var results: [(String, Double)] = []

    /// - Parameter usesSnapshot: false lists the folder at every start (no listing snapshot: the
    ///   figure before issue 18 item 4, measured in the same run).
    init(folder: String, cache: String?, memoryMB: Int?, usesSnapshot: Bool = true) throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        loop = try EventLoop(signals: [])
        var config = KioskConfig()
        if let memoryMB { config.cache.memoryMB = memoryMB }
        // As `photokiosk run` does: the scan starts before the display is opened.
        startup = LibraryStartup(folders: [folder], config: config, loop: loop, logger: logger,
                                     snapshot: usesSnapshot ? cache.map { ListingSnapshotStore(directory: $0, logger: logger) } : nil)
        display = HeadlessDisplay(width: 1920, height: 1080)
        app = KioskApp(config: config, folders: [folder], display: display, loop: loop,
                       thumbnailCacheDirectory: cache, logger: logger, startup: startup)
        try app.start()
    }

    func record(_ key: String, _ value: Double) { results.append((key, value)) }

    /// VmHWM of this process, in bytes.
    static func peakRSS() -> Double? {
        guard let status = readText("/proc/self/status"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kb * 1024
    }

    /// Starts a new VmHWM window (Linux: "5" to clear_refs resets the peak to the current RSS),
    /// so a phase's own peak can be told from the start-up's.
    static func resetPeakRSS() {
        guard let file = try? FileDescriptor.openFile("/proc/self/clear_refs", .writeOnly) else { return }
        defer { file.closeQuietly() }
        try? file.writeAll(Array("5".utf8))
    }

    func write(to path: String) {
        // Our own high-water mark: wait4's ru_maxrss also counts the parent's pages the
        // posix_spawn child shared before exec.
        if let peak = Self.peakRSS() { results.append(("peak_rss", peak)) }
        let stats = app.loaderStatistics
        results.append(("decodes_started", Double(stats.decodesStarted)))
        results.append(("cancelled_before_start", Double(stats.cancelledBeforeStart)))
        results.append(("cache_bytes", Double(app.imageCacheBytes)))
        // glibc's per-arena totals to stderr (not in the Glibc module: looked up at run time).
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_stats") {
            unsafeBitCast(symbol, to: (@convention(c) () -> Void).self)()
        }
        writeKeyValues(results, to: path)
    }

    /// One turn as in `ScreenHost.run()`: wait for input, timers or posted results, then pump.
    func turn(timeout: Double?) throws {
        try loop.runOnce(timeout: timeout)
        app.host.pump()
    }

    func measureStart(timeout: Double = 120) throws {
        app.host.pump()
        var firstFrame: Double?, allVisible: Double?
        var lastFrames = app.host.framesPresented
        while loop.now - startTime < timeout {
            if firstFrame == nil, app.host.framesPresented > lastFrames, app.grid.itemCount > 0 {
                firstFrame = loop.now - startTime
            }
            // Every visible cell shows its thumbnail, drawn. Not "the app is settled": that also
            // waits for the library's scan to end (for 10,000 photos, the walk that checks the
            // listing snapshot), which is no thumbnail's doing.
            if allVisible == nil, firstFrame != nil, app.grid.isVisibleContentLoaded, !app.window.needsDisplay {
                allVisible = loop.now - startTime
            }
            lastFrames = app.host.framesPresented
            if app.isContentLoaded && !app.window.needsDisplay && app.window.nextDeadline == nil { break }
            try turn(timeout: 0.05)
        }
        record("first_frame", firstFrame ?? .nan)
        record("all_visible", allVisible ?? .nan)
        record("settled", app.isContentLoaded ? loop.now - startTime : .nan)
        record("photos", Double(app.photos.count))
        record("snapshot_used", app.listingSnapshotUse == .used ? 1 : 0)
    }

    func settle() throws {
        _ = try app.runUntilSettled(timeout: 120)
    }

    /// CPU share (of one core) over `seconds` of the real loop with nothing happening.
    func measureIdle(seconds: Double) throws {
        try settle()
        let frames = app.host.framesPresented, wakeups = loop.wakeups
        let cpu0 = ResourceUsage.current().cpuSeconds, t0 = loop.now
        while loop.now - t0 < seconds { try turn(timeout: seconds - (loop.now - t0)) }
        record("cpu_percent", (ResourceUsage.current().cpuSeconds - cpu0) / (loop.now - t0) * 100)
        record("frames", Double(app.host.framesPresented - frames))
        record("wakeups", Double(loop.wakeups - wakeups))
    }

    /// An upward swipe every 0.5 s for `seconds`: the grid keeps flinging down the library
    /// (it holds ~400,000 px of rows, far more than the flings cover) and never rests.
    func measureFling(seconds: Double) throws {
        try settle()
        if let peak = Self.peakRSS() { record("settled_peak_rss", peak) }
        Self.resetPeakRSS()
        let decodes0 = app.loaderStatistics.decodesStarted
        let frames = app.host.framesPresented
        let cpu0 = ResourceUsage.current().cpuSeconds, t0 = loop.now
        var script = swipes(from: t0 + 0.05, until: t0 + seconds)
        var travelled = 0.0
        while loop.now - t0 < seconds {
            while let next = script.first, next.time <= loop.now {
                app.handle(next.event)
                script.removeFirst()
            }
            let nextEvent = script.first?.time ?? (t0 + seconds)
            let y = app.grid.contentOffset.y
            try turn(timeout: max(0, min(nextEvent, t0 + seconds) - loop.now))
            travelled += abs(app.grid.contentOffset.y - y)
        }
        record("scrolled_px", travelled)
        record("fling_decodes_started", Double(app.loaderStatistics.decodesStarted - decodes0))
        let elapsed = loop.now - t0
        record("cpu_percent", (ResourceUsage.current().cpuSeconds - cpu0) / elapsed * 100)
        record("fps", Double(app.host.framesPresented - frames) / elapsed)
    }

    private func swipes(from start: Double, until end: Double) -> [(time: Double, event: InputEvent)] {
        var out: [(Double, InputEvent)] = []
        var t = start
        while t + 0.1 < end {
            let x = 960.0
            var y = 900.0
            let step = -50.0
            out.append((t, .touch(slot: 0, phase: .down, location: Point(x: x, y: y), time: t)))
            out.append((t, .frame(time: t)))
            for i in 1...8 {
                let ti = t + Double(i) * 0.008
                y += step
                out.append((ti, .touch(slot: 0, phase: .motion, location: Point(x: x, y: y), time: ti)))
                out.append((ti, .frame(time: ti)))
            }
            let tu = t + 0.072
            out.append((tu, .touch(slot: 0, phase: .up, location: Point(x: x, y: y), time: tu)))
            out.append((tu, .frame(time: tu)))
            t += 0.5
        }
        return out
    }

    /// Opens the album on the first photo and steps through 40 photos, each shown at screen
    /// quality before the next (peak RSS is the figure).
    func measureAlbum(photos: Int = 40) throws {
        try settle()
        let t0 = loop.now
        // Each page until its photo is drawn (not until the chrome has faded: that is timers).
        func showPage() throws {
            let end = loop.now + 30
            while !((app.album?.isCenterPageLoaded ?? true) && !app.window.needsDisplay) && loop.now < end {
                try turn(timeout: 0.02)
            }
        }
        app.openPhoto(at: 0)
        try showPage()
        for i in 1..<min(photos, app.photos.count) {
            app.album?.setCenterPageIndex(i, animated: false)
            app.host.pump()
            try showPage()
        }
        record("seconds", loop.now - t0)
        record("pages", Double(app.album?.centerPageIndex ?? -1) + 1)
    }

    /// A finger dragging the grid up and down at 125 Hz from another thread (as libinput's fd
    /// would wake the loop); each event's latency ends when the frame showing it is presented.
    func measureLatency(seconds: Double) throws {
        try settle()
        let box = LoopBound(self, on: loop.thread)
        var pending: [Double] = []
        var latencies = Samples()
        let pendingBox = LoopBound(PendingTimes(), on: loop.thread)
        let feeder = DragFeeder(mailbox: loop.mailbox, seconds: seconds) { time, location, phase in
            let child = box.value
            child.app.handle(.touch(slot: 0, phase: phase, location: location, time: time))
            child.app.handle(.frame(time: time))
            pendingBox.value.times.append(time)
        }
        feeder.start()
        let t0 = loop.now
        while loop.now - t0 < seconds + 0.5 {
            let before = app.host.framesPresented
            try turn(timeout: 0.1)
            if app.host.framesPresented > before {
                let now = loop.now
                pending += pendingBox.value.times
                pendingBox.value.times.removeAll()
                for t in pending { latencies.add(now - t) }
                pending.removeAll()
            }
        }
        feeder.join()
        record("median", latencies.median)
        record("p99", latencies.percentile(99))
        record("events", Double(latencies.count))
    }
}

final class PendingTimes { var times: [Double] = [] }

/// Posts a back-and-forth drag to the loop's mailbox every 8 ms from its own thread.
final class DragFeeder: @unchecked Sendable {
    let mailbox: Mailbox
    let seconds: Double
    /// Runs on the loop (posted to the mailbox) only.
    let deliver: LoopBound<(Double, Point, TouchPhase) -> Void>
    private var thread = pthread_t()

    /// Called on the loop thread.
    init(mailbox: Mailbox, seconds: Double, deliver: @escaping (Double, Point, TouchPhase) -> Void) {
        self.mailbox = mailbox
        self.seconds = seconds
        self.deliver = LoopBound(deliver, on: mailbox.thread)
    }

    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { raw in
            let feeder = Unmanaged<DragFeeder>.fromOpaque(raw!).takeRetainedValue()
            feeder.feed()
            return nil
        }, context)
    }

    func join() { pthread_join(thread, nil) }

    private func feed() {
        let start = SystemClock.monotonicSeconds()
        var i = 0
        while true {
            let now = SystemClock.monotonicSeconds()
            let elapsed = now - start
            let done = elapsed >= seconds
            // Triangle wave between y = 250 and 850, 600 px each way per second.
            let phaseInCycle = elapsed.truncatingRemainder(dividingBy: 2)
            let y = 250 + 600 * (phaseInCycle < 1 ? phaseInCycle : 2 - phaseInCycle)
            let phase: TouchPhase = i == 0 ? .down : done ? .up : .motion
            let location = Point(x: 900, y: y)
            let deliver = self.deliver
            mailbox.post { deliver.value(now, location, phase) }
            if done { return }
            i += 1
            var ts = timespec(tv_sec: 0, tv_nsec: 8_000_000)
            nanosleep(&ts, nil)
        }
    }
}

/// Entry point of `photokiosk-bench child MODE FOLDER CACHE|- OUT SECONDS [MEMORY_MB]`
/// (the tiles-pinch and tiles-zoom modes ignore FOLDER and CACHE).
func runChild(_ args: [String]) throws {
    guard args.count >= 4 else { fatalError("child MODE FOLDER CACHE OUT [SECONDS]") }
    let mode = args[0], folder = args[1], cache = args[2] == "-" ? nil : args[2], out = args[3]
    let seconds = args.count > 4 ? Double(args[4]) ?? 3 : 3
    let memoryMB = args.count > 5 ? Int(args[5]) : nil
    if mode.hasPrefix("tiles-") {
        let tiles = try TilesChild()
        switch mode {
        case "tiles-pinch": try tiles.measurePinch()
        case "tiles-zoom": try tiles.measureZoom()
        default: fatalError("unknown child mode \(mode)")
        }
        tiles.write(to: out)
        return
    }
    let child = try AppChild(folder: folder, cache: cache, memoryMB: memoryMB, usesSnapshot: mode != "start-listing")
    switch mode {
    case "start", "start-listing": try child.measureStart()
    case "idle": try child.measureIdle(seconds: seconds)
    case "fling": try child.measureFling(seconds: seconds)
    case "latency": try child.measureLatency(seconds: seconds)
    case "album": try child.measureAlbum()
    case "clip": try child.measureClip(seconds: seconds)
    default: fatalError("unknown child mode \(mode)")
    }
    child.write(to: out)
    // The listing snapshot is saved after the scan reports its end: on disk before the next start.
    if child.app.isScanFinished { child.startup.waitUntilScanned() }
}
