import Testing
import Graphics
import UI
@testable import Widgets

@Suite struct ChromeMetricsTests {
    @Test func aSmallPanelIsSizedByItsMillimetres() {
        // The official 7" Raspberry Pi panel: 800×480 on 154×86 mm; a 7" 1024×600 panel.
        let pi = ChromeMetrics(screen: Size(width: 800, height: 480), millimetres: Size(width: 154, height: 86))
        #expect(abs(pi.scale - 0.855) < 0.01)
        let sharp = ChromeMetrics(screen: Size(width: 1024, height: 600), millimetres: Size(width: 154, height: 86))
        #expect(abs(sharp.scale - 1.08) < 0.02)
        // A 5" 1080p panel: dense, so controls get many pixels to stay a fingertip wide.
        let dense = ChromeMetrics(screen: Size(width: 1920, height: 1080), millimetres: Size(width: 110, height: 62))
        #expect(dense.scale > 2.6 && dense.scale < 2.9)
        // The same panel turned portrait, its size still reported landscape (a touch panel).
        let turned = ChromeMetrics(screen: Size(width: 480, height: 800), millimetres: Size(width: 154, height: 86))
        #expect(turned.scale == pi.scale)
    }

    @Test func aTVIsSizedByItsPictureHeight() {
        // A 55" 1080p TV reports 1210×680 mm: by density a point would be a quarter pixel.
        let tv = ChromeMetrics(screen: Size(width: 1920, height: 1080), millimetres: Size(width: 1210, height: 680))
        #expect(tv.scale == 1.5)
        let uhd = ChromeMetrics(screen: Size(width: 3840, height: 2160), millimetres: Size(width: 1210, height: 680))
        #expect(uhd.scale == 3)
        // Unknown size (headless, fbdev, a projector reporting 0×0): the height alone.
        #expect(ChromeMetrics(screen: Size(width: 1280, height: 720), millimetres: nil).scale == 1)
    }

    @Test func bogusReportsAreClamped() {
        #expect(ChromeMetrics(screen: Size(width: 1920, height: 1080), millimetres: Size(width: 1, height: 1)).scale == 4)
        #expect(ChromeMetrics(screen: Size(width: 320, height: 240), millimetres: nil).scale == 0.75)
        #expect(ChromeMetrics(screen: .zero, millimetres: nil).scale == 1)
    }

    @Test func theAlbumsControlsGrowWithTheScale() {
        let small = AlbumHarness(count: 5, size: Size(width: 1920, height: 1080))
        let big = AlbumHarness(count: 5, size: Size(width: 1920, height: 1080))
        big.album.metrics = ChromeMetrics(scale: 2)
        big.window.layoutIfNeeded()
        #expect(big.album.indicator.pillSize.width == 2 * small.album.indicator.pillSize.width)
        #expect(big.album.filmstrip.frame.height == 2 * small.album.filmstrip.frame.height)
        #expect(big.album.backButton.frame.height >= 2 * 44)
        #expect(big.album.filmstrip.reorderDensity == 2)
    }
}
