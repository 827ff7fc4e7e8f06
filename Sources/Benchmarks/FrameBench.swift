import Glibc
import Graphics
import Imaging
import SystemAccess
import UI
import Widgets

/// (b) Full-screen frame cost at 1920x1080: the real view tree rendered into an in-memory frame
/// buffer, one animation step per frame, next to the floor of one memcpy of a frame.
struct FrameBench {
    let width = 1920
    let height = 1080

    /// Thread CPU seconds of one 1920x1080x4 memcpy.
    func memcpyFloor(runs: Int) -> Samples {
        let bytes = width * height * 4
        let a = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        let b = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        defer { a.deallocate(); b.deallocate() }
        memset(a, 0x55, bytes)
        memset(b, 0, bytes)
        return cpuTimes(runs) { memcpy(b, a, bytes) }
    }

    /// Per-frame render time of the thumbnail grid (10,000 photos, every thumbnail loaded)
    /// scrolling at `pixelsPerFrame` (17 px at 60 Hz ≈ a brisk 1000 px/s fling).
    /// Thumbnails come from `thumbnails(edge)` at the edge the grid asks for, as the app's
    /// loader decodes them.
    func gridScroll(frames: Int, pixelsPerFrame: Double = 17, thumbnails: (Int) throws -> [Bitmap]) rethrows -> Samples {
        let clock = ManualClock()
        let window = Window(size: Size(width: width, height: height), clock: clock)
        let grid = ThumbnailGridView(frame: window.bounds)
        grid.preferredCellSize = 256
        grid.font = try? Font.standard(pixelSize: 14)
        grid.itemCount = 10_000
        window.addSubview(grid)
        window.layoutIfNeeded()
        let provider = StaticThumbnails(try thumbnails(grid.thumbnailEdge))
        grid.provider = provider
        let canvas = Canvas(target: Bitmap(width: width, height: height))
        window.render(into: canvas)
        var samples = Samples()
        var direction = 1.0
        for _ in 0..<frames {
            clock.advance(by: 1.0 / 60)
            let maxY = grid.contentSize.height - grid.bounds.height
            var y = grid.contentOffset.y + direction * pixelsPerFrame
            if y > maxY || y < 0 { direction = -direction; y = grid.contentOffset.y + direction * pixelsPerFrame }
            let start = SystemClock.threadCPUSeconds()
            grid.contentOffset = Point(x: 0, y: y)
            window.advance(to: clock.now)
            window.render(into: canvas)
            samples.add(SystemClock.threadCPUSeconds() - start)
        }
        return samples
    }

    /// Per-frame cost while a thumbnail is carried (long press) to the bottom edge: the
    /// lifted thumbnail follows a slightly wobbling finger, the grid autoscrolls under it and
    /// the cells it passes make room (everything `ReorderDrag` does each frame).
    func gridDragAutoscroll(frames: Int, thumbnails: (Int) throws -> [Bitmap]) rethrows -> Samples {
        let clock = ManualClock()
        let window = Window(size: Size(width: width, height: height), clock: clock)
        let grid = ThumbnailGridView(frame: window.bounds)
        grid.preferredCellSize = 256
        grid.itemCount = 10_000
        window.addSubview(grid)
        window.layoutIfNeeded()
        let provider = StaticThumbnails(try thumbnails(grid.thumbnailEdge))
        grid.provider = provider
        defer { withExtendedLifetime(provider) {} }
        grid.contentOffset = Point(x: 0, y: 20_000)
        let canvas = Canvas(target: Bitmap(width: width, height: height))
        window.render(into: canvas)
        let visible = grid.visibleIndices
        let picked = visible[visible.count / 2]
        let start = grid.convert(grid.layout.frame(of: picked).center, to: nil)
        grid.beginReorder(at: picked, finger: start)
        var samples = Samples()
        for i in 0..<frames {
            clock.advance(by: 1.0 / 60)
            // 15 frames to reach the bottom edge zone, then hold there with a small wobble.
            let progress = min(1, Double(i) / 15)
            let finger = Point(x: start.x + 3 * sin(Double(i) / 3),
                               y: start.y + (Double(height) - 25 - start.y) * progress)
            let begin = SystemClock.threadCPUSeconds()
            grid.reorderDrag?.move(to: finger)
            window.advance(to: clock.now)
            window.render(into: canvas)
            samples.add(SystemClock.threadCPUSeconds() - begin)
        }
        return samples
    }
}

/// Every thumbnail is already decoded: frames measure drawing, not loading.
final class StaticThumbnails: ThumbnailProvider {
    let bitmaps: [Bitmap]
    init(_ bitmaps: [Bitmap]) { self.bitmaps = bitmaps }

    func thumbnailState(at index: Int, edge: Int) -> ThumbnailState {
        bitmaps.isEmpty ? .loading : .image(bitmaps[index % bitmaps.count])
    }

    func updateWantedThumbnails(_ distances: [Int: Double], edge: Int) {}
}
