import Glibc
import Testing
import Graphics
import UI
@testable import Widgets

/// The grid and the album scroll by copying pixels (UI's Window+ScrollCopy). Each test builds the
/// same screen twice, plays the same frames into both, renders one incrementally (copying) and
/// the other from scratch, and compares every pixel of every frame.
@Suite struct ScrollCopyWidgetTests {
    /// One of the two copies of a screen: a window on its own clock and its frame buffer.
    final class Screen {
        let clock = ManualClock(now: 100)
        let window: Window
        let bitmap: Bitmap
        let canvas: Canvas
        var keep: [AnyObject] = []

        init(width: Int, height: Int) {
            window = Window(size: Size(width: width, height: height), clock: clock)
            bitmap = Bitmap(width: width, height: height)
            canvas = Canvas(target: bitmap)
        }

        func advance(by seconds: Double = 1.0 / 60) {
            clock.advance(by: seconds)
            window.advance(to: clock.now)
        }

        func touch(_ phase: TouchPhase, _ p: Point) {
            window.dispatch([TouchEvent(slot: 0, phase: phase, location: p, timestamp: clock.now)])
        }
    }

    /// Counts what the incremental screen did over a test.
    struct Tally {
        var frames = 0
        var copied = 0
        /// Frames in which the watched scroll view moved by less than its size, and those of
        /// them that were copied (every one should be).
        var moved = 0
        var movedAndCopied = 0
    }

    /// Plays `change` into both screens, renders and compares them; `scroll` (of the first
    /// screen) is the view whose moves should be copied.
    static func frame(_ screens: (Screen, Screen), _ label: String, _ tally: inout Tally, watching scroll: ScrollView? = nil,
                      _ change: (Screen) -> Void) {
        let offset = scroll?.contentOffset
        change(screens.0)
        change(screens.1)
        let before = screens.0.window.copiedFrameCount
        screens.0.window.render(into: screens.0.canvas)
        screens.1.window.setNeedsDisplayAll()
        screens.1.window.render(into: screens.1.canvas)
        let copied = screens.0.window.copiedFrameCount > before
        tally.frames += 1
        if copied { tally.copied += 1 }
        if let scroll, let offset, offset != scroll.contentOffset,
           abs(offset.x - scroll.contentOffset.x) < scroll.bounds.width, abs(offset.y - scroll.contentOffset.y) < scroll.bounds.height {
            tally.moved += 1
            if copied { tally.movedAndCopied += 1 }
        }
        let difference = firstDifference(screens.0.bitmap, screens.1.bitmap)
        #expect(difference == nil, "\(label): pixel \(difference.map { "\($0)" } ?? "") differs from a full redraw")
    }

    /// A finger pressed at `start`, moved by `step` each frame `count` times and lifted where it
    /// ended, a frame compared after each event.
    static func swipe(_ screens: (Screen, Screen), _ label: String, _ tally: inout Tally, watching scroll: ScrollView,
                      from start: Point, step: Point, count: Int) {
        frame(screens, "\(label): finger down", &tally, watching: scroll) { $0.touch(.began, start) }
        for i in 1...count {
            frame(screens, "\(label) \(i)", &tally, watching: scroll) { s in
                s.advance()
                s.touch(.moved, start + step * Double(i))
            }
        }
        frame(screens, "\(label): lift", &tally, watching: scroll) { $0.touch(.ended, start + step * Double(count)) }
    }

    /// Frames until nothing is scheduled on the first screen (10 s at most).
    static func settle(_ screens: (Screen, Screen), _ label: String, _ tally: inout Tally, watching scroll: ScrollView) {
        var frames = 0
        while screens.0.window.nextDeadline != nil, frames < 600 {
            frame(screens, "\(label) \(frames)", &tally, watching: scroll) { $0.advance() }
            frames += 1
        }
    }

    static func firstDifference(_ a: Bitmap, _ b: Bitmap) -> (x: Int, y: Int, got: UInt32, want: UInt32)? {
        for y in 0..<a.height where memcmp(a.row(y), b.row(y), 4 * a.width) != 0 {
            for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
                return (x, y, a.pixel(x: x, y: y), b.pixel(x: x, y: y))
            }
        }
        return nil
    }

    /// A picture that shows any resampling or misplacement: diagonal stripes and a gradient.
    static func picture(width: Int, height: Int, seed: Int) -> Bitmap {
        let b = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let stripe = (x + y + seed) % 9 < 3 ? UInt32(0xE0) : UInt32(0x30)
                b.setPixel(x: x, y: y, 0xFF00_0000 | stripe << 16 | UInt32((x * 255) / max(1, width - 1)) << 8
                           | UInt32((y * 7 + seed * 31) % 256))
            }
        }
        return b
    }

    // MARK: Grid

    /// Thumbnails of every kind: larger than the cell (copied 1:1), smaller (scaled), broken
    /// (text), and still loading.
    final class Thumbnails: ThumbnailProvider {
        func thumbnailState(at index: Int, edge: Int) -> ThumbnailState {
            switch index % 7 {
            case 3: return .failed(reason: "test")
            case 5: return .loading
            case 1: return .image(ScrollCopyWidgetTests.picture(width: edge / 2 + 3, height: edge / 3 + 1, seed: index))
            default: return .image(ScrollCopyWidgetTests.picture(width: edge + 7, height: edge + 2, seed: index))
            }
        }
        func updateWantedThumbnails(_ distances: [Int: Double], edge: Int) {}
    }

    static func gridScreen() -> (Screen, ThumbnailGridView) {
        let screen = Screen(width: 640, height: 480)
        let grid = ThumbnailGridView(frame: screen.window.bounds)
        grid.preferredCellSize = 150      // columns of fractional width
        grid.font = try? Font.standard(pixelSize: 12)
        grid.itemCount = 500
        let thumbnails = Thumbnails()
        grid.provider = thumbnails
        screen.keep = [thumbnails]
        screen.window.addSubview(grid)
        // A caption above the grid, overlapping it (the kind of label an app puts on top).
        let label = View(frame: Rect(x: 200.5, y: 10, width: 180, height: 26.5))
        label.backgroundColor = Color(rgb: 0x000000, alpha: 150)
        screen.window.addSubview(label)
        return (screen, grid)
    }

    /// The same grid screen twice; `grid(screen)` is the grid of either.
    struct GridPair {
        let a = ScrollCopyWidgetTests.gridScreen(), b = ScrollCopyWidgetTests.gridScreen()
        var screens: (Screen, Screen) { (a.0, b.0) }
        var watched: ScrollView { a.1 }
        func grid(_ s: Screen) -> ThumbnailGridView { s === a.0 ? a.1 : b.1 }
    }

    @Test func gridScrollsFlingsAndBouncesLikeAFullRedraw() {
        let pair = GridPair(), screens = pair.screens, watched = pair.watched
        let grid = pair.grid
        var tally = Tally()
        Self.frame(screens, "first frame", &tally, watching: watched) { _ in }
        for (i, dy) in [17.0, 17, 17, -40, 3, 250, -1, 479, 480, 1000].enumerated() {
            Self.frame(screens, "offset step \(i)", &tally, watching: watched) { grid($0).contentOffset.y += dy }
        }
        // A real drag with the finger at fractional places, then the fling and the bounce at the end.
        Self.swipe(screens, "drag", &tally, watching: watched, from: Point(x: 300.3, y: 400.6), step: Point(x: 0.37, y: -29.13), count: 10)
        Self.settle(screens, "fling", &tally, watching: watched)
        // Near the end: a fling into the bottom edge bounces back.
        Self.frame(screens, "jump near the end", &tally, watching: watched) { grid($0).contentOffset.y = grid($0).maximumContentOffset.y - 100 }
        Self.swipe(screens, "drag to the end", &tally, watching: watched, from: Point(x: 300, y: 400), step: Point(x: 0, y: -60.5), count: 4)
        Self.settle(screens, "bounce", &tally, watching: watched)
        #expect(tally.moved > 60)
        #expect(tally.movedAndCopied == tally.moved, "copied \(tally.movedAndCopied) of \(tally.moved) frames that moved")
    }

    @Test func gridReorderWithALiftedThumbnailAndAutoscrollLikeAFullRedraw() {
        let pair = GridPair(), screens = pair.screens, watched = pair.watched
        let grid = pair.grid, a = pair.a
        var tally = Tally()
        Self.frame(screens, "first frame", &tally, watching: watched) { grid($0).contentOffset.y = 1000 }
        let picked = a.1.visibleIndices[a.1.visibleIndices.count / 2]
        let start = a.1.convert(a.1.layout.frame(of: picked).center, to: nil)
        Self.frame(screens, "pick up", &tally, watching: watched) { grid($0).beginReorder(at: picked, finger: start) }
        // Carried to the bottom edge: the grid autoscrolls under it and the cells make room.
        for i in 1...70 {
            let progress = min(1, Double(i) / 12)
            let finger = Point(x: start.x + 3.3 * sin(Double(i) / 3), y: start.y + (480 - 12 - start.y) * progress)
            Self.frame(screens, "carry \(i)", &tally, watching: watched) { s in
                grid(s).reorderDrag?.move(to: finger)
                s.advance()
            }
        }
        #expect(a.1.contentOffset.y > 1100, "the grid autoscrolled")
        // Back up to the top edge, then drop; the thumbnail flies home.
        for i in 1...40 {
            let finger = Point(x: start.x, y: 468 - Double(i) * 11.5)
            Self.frame(screens, "carry up \(i)", &tally, watching: watched) { s in
                grid(s).reorderDrag?.move(to: finger)
                s.advance()
            }
        }
        Self.frame(screens, "drop", &tally, watching: watched) { grid($0).reorderDrag?.drop() }
        var frames = 0
        while a.0.window.nextDeadline != nil, frames < 200 {
            Self.frame(screens, "landing \(frames)", &tally, watching: watched) { $0.advance() }
            frames += 1
        }
        #expect(!a.1.isReordering)
        #expect(tally.moved > 30)
        #expect(tally.movedAndCopied == tally.moved, "copied \(tally.movedAndCopied) of \(tally.moved) frames that autoscrolled")
    }

    // MARK: Album

    final class Photos: PhotoAlbumProvider {
        let bitmaps: [Bitmap]
        init(_ bitmaps: [Bitmap]) { self.bitmaps = bitmaps }
        var photoCount: Int { 12 }
        func photoContent(at index: Int) -> PhotoContent {
            let bitmap = bitmaps[index % bitmaps.count]
            // Every other photo is a screen decode of a larger original (drawn scaled).
            let original = index % 2 == 0 ? bitmap.size : bitmap.size * 2.7
            return PhotoContent(bitmap: bitmap, quality: .screen, originalSize: original)
        }
        func caption(at index: Int) -> String? { "photo-\(index).jpg" }
        func updateWantedPhotos(_ demands: [Int: PhotoDemand]) {}
    }

    static func albumScreen() -> (Screen, PhotoAlbumView) {
        let screen = Screen(width: 480, height: 320)
        let album = PhotoAlbumView(frame: screen.window.bounds)
        album.font = try? Font.standard(pixelSize: 14)
        screen.window.addSubview(album)
        let photos = Photos([picture(width: 480, height: 320, seed: 1), picture(width: 427, height: 320, seed: 2),
                             picture(width: 480, height: 211, seed: 3), picture(width: 301, height: 199, seed: 4)])
        album.show(photos, at: 3)
        screen.window.firstResponder = album
        screen.keep = [photos]
        return (screen, album)
    }

    @Test func albumPagingWithItsChromeLikeAFullRedraw() {
        let a = Self.albumScreen(), b = Self.albumScreen()
        let screens = (a.0, b.0)
        func album(_ s: Screen) -> PhotoAlbumView { s === a.0 ? a.1 : b.1 }
        let watched = a.1.pager.scrollView
        var tally = Tally()
        Self.frame(screens, "first frame", &tally, watching: watched) { _ in }
        // Animated page turns while the counter and caption show and fade.
        for turn in 0..<4 {
            Self.frame(screens, "turn \(turn)", &tally, watching: watched) { album($0).setCenterPageIndex(album($0).centerPageIndex + (turn == 2 ? -1 : 1), animated: true) }
            for i in 0..<40 {
                Self.frame(screens, "turn \(turn) frame \(i)", &tally, watching: watched) { $0.advance() }
            }
        }
        // A swipe: drag, release, the page snaps with a spring.
        Self.swipe(screens, "swipe", &tally, watching: watched, from: Point(x: 400.4, y: 150.2), step: Point(x: -21.7, y: 0.3), count: 8)
        Self.settle(screens, "snap", &tally, watching: watched)
        #expect(a.1.centerPageIndex == b.1.centerPageIndex)
        #expect(tally.moved >= 60)
        #expect(tally.movedAndCopied == tally.moved, "copied \(tally.movedAndCopied) of \(tally.moved) frames that paged")
    }
}
