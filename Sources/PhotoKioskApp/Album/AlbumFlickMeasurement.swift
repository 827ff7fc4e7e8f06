import Basics
import Graphics
import Imaging
import Platform
import UI
import Widgets

/// Figures from flicking through the album on a running app (headless or real screen).
public struct AlbumFlickReport: CustomStringConvertible {
    public var photos = 0
    public var flicks = 0
    public var framesPresented = 0
    /// Presented frames where the centre page had no bitmap at all (an empty page).
    public var centreEmptyFrames = 0
    /// Presented frames where any page on screen (also the one sliding in) had no bitmap.
    public var visibleEmptyFrames = 0
    /// Presented frames where the centre page showed only the thumbnail.
    public var centreThumbnailFrames = 0
    /// Seconds from a page change to the screen-sized image on that page, one per page.
    public var pageToScreen: [Double] = []
    /// Milliseconds of layout + drawing + present per presented frame.
    public var frameWork: [Double] = []
    /// Frames over 16.7 ms of work while a page on screen showed an upscaled thumbnail.
    public var slowFramesWithThumbnail = 0
    /// The photo the album ended on (the last one when no flick was lost).
    public var lastPage = 0
    /// Seconds from the double tap to the full image on the zoomed page (nil if not measured).
    public var zoomToFull: Double?
    public var zoomedQuality: PhotoQuality?
    public var zoomedScale: Double?
    /// The zoomed photo was shown as tiles (a photo over twice the screen).
    public var zoomedTiled = false

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    public var description: String {
        func ms(_ s: Double) -> String { String(Int((s * 1000).rounded())) }
        var lines = [
            "photos \(photos), flicks \(flicks), ended on photo \(lastPage + 1), frames presented \(framesPresented)",
            "frames with an empty centre page: \(centreEmptyFrames); with any empty page on screen: \(visibleEmptyFrames)",
            "frames with the centre page still at thumbnail quality: \(centreThumbnailFrames)",
            "page change → screen image: median \(ms(Self.percentile(pageToScreen, 0.5))) ms, p90 \(ms(Self.percentile(pageToScreen, 0.9))) ms, max \(ms(pageToScreen.max() ?? 0)) ms (\(pageToScreen.count) pages)",
            "frame work: median \(format1(Self.percentile(frameWork, 0.5))) ms, p95 \(format1(Self.percentile(frameWork, 0.95))) ms, max \(format1(frameWork.max() ?? 0)) ms, over 16.7 ms: \(frameWork.filter { $0 > 1000.0 / 60 }.count) (\(slowFramesWithThumbnail) of them with a thumbnail on screen)",
        ]
        if let zoomedScale {
            let quality = zoomedTiled ? "tiles" : zoomedQuality.map { "\($0)" } ?? "-"
            let reached = zoomToFull.map { "\(ms($0)) ms" } ?? "NOT REACHED"
            lines.append("double tap → full image: \(reached), quality \(quality), zoom \(format1(zoomedScale))")
        }
        return lines.joined(separator: "\n")
    }
}

/// When each page became the centre page (written by the album's callback during sampling).
private final class PageChangeTimes {
    var times: [Int: Double] = [:]
}

private func format1(_ v: Double) -> String { decimalText(v, places: 1) }

/// Drives a started `KioskApp` in real time with synthetic touches: opens the album at the first
/// photo, flicks to the next photo every `interval` seconds until the last, and samples every
/// presented frame. Optionally double-taps photo `zoomPhoto` to its maximum zoom and writes the
/// screen to `zoomPNG`. For manual measurements (`photokiosk snapshot --flick`), not for tests.
public struct AlbumFlickMeasurement {
    public let app: KioskApp
    public var interval = 0.5

    public init(app: KioskApp, interval: Double = 0.5) {
        self.app = app
        self.interval = interval
    }

    private var host: ScreenHost { app.host }
    private var loop: EventLoop { app.host.loop }

    public func run(zoomPhoto: Int? = nil, zoomPNG: String? = nil) throws -> AlbumFlickReport {
        var report = AlbumFlickReport()
        try app.runUntilSettled(timeout: 60)
        report.photos = app.photos.count
        guard report.photos > 1 else { return report }
        app.openPhoto(at: 0)
        try app.runUntilSettled(timeout: 30)
        guard let album = app.album else { return report }
        let changedAt = PageChangeTimes()
        // The app's own handler stays: it puts big photos in tiled mode and starts their pyramid
        // builds, which a frame pays for too (their memory is part of what is measured).
        let appHandler = album.onPageChange
        album.onPageChange = { [loop] index in
            appHandler?(index)
            changedAt.times[index] = loop.now
        }
        let size = app.window.bounds.size
        for _ in 1..<report.photos {
            report.flicks += 1
            let y = size.height / 2, x0 = size.width * 0.7, dx = -size.width * 0.2
            send(.down, Point(x: x0, y: y))
            for i in 1...5 {
                try run(for: 1.0 / 60, album: album, report: &report, changedAt: changedAt)
                send(.motion, Point(x: x0 + dx * Double(i) / 5, y: y))
            }
            send(.up, Point(x: x0 + dx, y: y))
            try run(for: interval, album: album, report: &report, changedAt: changedAt)
        }
        try app.runUntilSettled(timeout: 30)
        report.lastPage = album.centerPageIndex
        album.onPageChange = appHandler
        changedAt.times.removeAll()
        if let zoomPhoto {
            album.setCenterPageIndex(zoomPhoto, animated: false)
            try app.runUntilSettled(timeout: 30)
            let centre = Point(x: size.width / 2, y: size.height / 2)
            let start = loop.now
            if let tiles = app.tiledPhoto?.content {
                // A tiled photo: each double tap zooms 2x (stopping at 1:1); the tiles of the
                // pyramid (or cut on the fly until it is built) are its full quality.
                for _ in 0..<8 where tiles.view.effectiveScale < 0.999 {
                    try doubleTap(at: centre, album: album, report: &report, changedAt: changedAt)
                    try run(for: 0.5, album: album, report: &report, changedAt: changedAt)
                }
                try app.runUntilSettled(timeout: 60)
                if tiles.view.effectiveScale >= 0.999, tiles.isSettled { report.zoomToFull = loop.now - start }
                report.zoomedTiled = true
                report.zoomedScale = tiles.view.effectiveScale
            } else {
                try doubleTap(at: centre, album: album, report: &report, changedAt: changedAt)
                _ = try host.run(until: { album.centerPage?.content.quality == .full }, timeout: 30)
                if album.centerPage?.content.quality == .full { report.zoomToFull = loop.now - start }
                try app.runUntilSettled(timeout: 30)
                report.zoomedQuality = album.centerPage?.content.quality
                report.zoomedScale = album.centerPage?.zoomScale
            }
            if let zoomPNG, let display = host.display as? HeadlessDisplay {
                try PNGEncoder.write(display.frameBuffer, to: zoomPNG)
            }
        }
        return report
    }

    private func doubleTap(at point: Point, album: PhotoAlbumView, report: inout AlbumFlickReport,
                           changedAt: PageChangeTimes) throws {
        for _ in 0..<2 {
            send(.down, point)
            try run(for: 0.05, album: album, report: &report, changedAt: changedAt)
            send(.up, point)
            try run(for: 0.05, album: album, report: &report, changedAt: changedAt)
        }
    }

    private func send(_ phase: Platform.TouchPhase, _ p: Point) {
        let now = loop.now
        app.handle(.touch(slot: 0, phase: phase, location: p, time: now))
        app.handle(.frame(time: now))
    }

    /// Runs the loop for `seconds`, sampling every presented frame.
    private func run(for seconds: Double, album: PhotoAlbumView, report: inout AlbumFlickReport,
                     changedAt: PageChangeTimes) throws {
        let end = loop.now + seconds
        while loop.now < end {
            let left = end - loop.now
            let wait = app.window.nextDeadline.map { max(0, min($0 - loop.now, left)) } ?? left
            _ = try loop.runOnce(timeout: wait)
            let before = host.framesPresented
            let t0 = loop.now
            host.pump()
            guard host.framesPresented > before else { continue }
            let work = (loop.now - t0) * 1000
            report.frameWork.append(work)
            report.framesPresented += 1
            if work > 1000.0 / 60 && thumbnailOnScreen(album) { report.slowFramesWithThumbnail += 1 }
            sample(album, report: &report, changedAt: changedAt)
        }
    }

    private func visiblePages(_ album: PhotoAlbumView) -> [PhotoPageView] {
        let screen = app.window.bounds
        return album.pager.livePageIndices.compactMap { album.page(at: $0) }.filter { page in
            let frame = page.convert(page.bounds, to: nil).intersection(screen)
            return frame.width >= 1 && frame.height >= 1
        }
    }

    private func thumbnailOnScreen(_ album: PhotoAlbumView) -> Bool {
        visiblePages(album).contains { $0.content.quality == .thumbnail }
    }

    private func sample(_ album: PhotoAlbumView, report: inout AlbumFlickReport, changedAt: PageChangeTimes) {
        if let centre = album.centerPage {
            if centre.bitmap == nil { report.centreEmptyFrames += 1 }
            if centre.content.quality == .thumbnail { report.centreThumbnailFrames += 1 }
            if centre.content.quality >= .screen, let changed = changedAt.times.removeValue(forKey: album.centerPageIndex) {
                report.pageToScreen.append(loop.now - changed)
            }
        }
        if visiblePages(album).contains(where: { $0.bitmap == nil }) { report.visibleEmptyFrames += 1 }
    }
}
