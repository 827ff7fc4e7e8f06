import Graphics
import SystemAccess
import UI
import Widgets

extension FrameBench {
    /// Per-frame cost of the photo album at 1920x1080 with every page already decoded at screen
    /// size. `paging`: a page turn (the album's own animated slide) every half second, counting
    /// only frames that drew something. Otherwise: the centre page at fit redrawn in full each
    /// frame (what any full-page change costs: returning from the grid, a caption, a crossfade).
    func album(frames: Int, paging: Bool, photos: [Bitmap]) -> Samples {
        let clock = ManualClock()
        let window = Window(size: Size(width: width, height: height), clock: clock)
        let album = PhotoAlbumView(frame: window.bounds)
        album.font = try? Font.standard(pixelSize: 18)
        window.addSubview(album)
        let source = StaticAlbumProvider(photos)
        album.show(source, at: 100)
        let canvas = Canvas(target: Bitmap(width: width, height: height))
        // Let the chrome (counter, caption) fade as it does after a page settles.
        for _ in 0..<150 {
            clock.advance(by: 1.0 / 60)
            window.advance(to: clock.now)
            window.render(into: canvas)
        }
        var samples = Samples()
        var i = 0
        while samples.count < frames && i < frames * 4 {
            clock.advance(by: 1.0 / 60)
            let start = SystemClock.threadCPUSeconds()
            if paging {
                if i % 30 == 0 { album.setCenterPageIndex(album.centerPageIndex + 1, animated: true) }
            } else {
                window.setNeedsDisplayAll()
            }
            window.advance(to: clock.now)
            let damage = window.render(into: canvas)
            let spent = SystemClock.threadCPUSeconds() - start
            if !damage.isEmpty { samples.add(spent) }
            i += 1
        }
        withExtendedLifetime(source) {}
        return samples
    }
}

/// Screen-sized photos, all already decoded.
final class StaticAlbumProvider: PhotoAlbumProvider {
    let bitmaps: [Bitmap]
    init(_ bitmaps: [Bitmap]) { self.bitmaps = bitmaps }

    var photoCount: Int { bitmaps.isEmpty ? 0 : 10_000 }

    func photoContent(at index: Int) -> PhotoContent {
        let bitmap = bitmaps[index % bitmaps.count]
        return PhotoContent(bitmap: bitmap, quality: .screen, originalSize: bitmap.size)
    }

    func caption(at index: Int) -> String? { "photo-\(index).jpg" }

    func updateWantedPhotos(_ demands: [Int: PhotoDemand]) {}
}
