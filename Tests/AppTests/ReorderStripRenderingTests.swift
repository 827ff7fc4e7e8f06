import Testing
import Graphics
import Imaging
import UI
@testable import Widgets

/// Serves solid-colour thumbnails.
private final class SolidProvider: ThumbnailProvider {
    func thumbnailState(at index: Int, edge: Int) -> ThumbnailState {
        let b = Bitmap(width: 32, height: 32)
        Canvas(target: b).clear(index == 0 ? Color(rgb: 0xFF2020) : Color(rgb: 0x3070C0))
        return .image(b)
    }
    func updateWantedThumbnails(_ distances: [Int: Double], edge: Int) {}
}

@Suite struct ReorderStripRenderingTests {
    /// A thumbnail dragged up out of the strip is drawn above it, unclipped, with its shadow,
    /// while the strip still clips its own content. Writes /tmp/photokiosk-reorder-strip.png.
    @Test func aThumbnailCarriedOutOfTheStripIsDrawnAboveIt() throws {
        let clock = ManualClock(now: 10)
        let window = Window(size: Size(width: 800, height: 600), clock: clock)
        window.backgroundColor = Color(rgb: 0x808080)
        let strip = ThumbnailStripView(frame: Rect(x: 100, y: 440, width: 600, height: 160))
        let provider = SolidProvider()
        strip.itemCount = 30
        strip.provider = provider
        window.addSubview(strip)
        window.layoutIfNeeded()
        func step(_ seconds: Double) {
            var t = 0.0
            while t < seconds - 1e-9 { clock.advance(by: 1.0 / 60); t += 1.0 / 60; window.advance(to: clock.now) }
        }
        let a = strip.convert(strip.layout.frame(of: 0).center, to: nil)
        window.dispatch([TouchEvent(slot: 0, phase: .began, location: a, timestamp: clock.now)])
        step(0.2)
        for i in 1...10 {
            step(1.0 / 60)
            let p = a + Point(x: 20, y: -250) * (Double(i) / 10)
            window.dispatch([TouchEvent(slot: 0, phase: .moved, location: p, timestamp: clock.now)])
        }
        step(0.3)
        let drag = try #require(strip.reorderDrag)
        let bitmap = Bitmap(width: 800, height: 600)
        window.render(into: Canvas(target: bitmap))
        try PNGEncoder.write(bitmap, to: "/tmp/photokiosk-reorder-strip.png")
        let shown = drag.lifted.itemFrame
        #expect(shown.maxY < 440)                                            // entirely above the strip
        #expect(bitmap.color(x: Int(shown.midX), y: Int(shown.midY)) == Color(rgb: 0xFF2020))
        let shadow = bitmap.color(x: Int(shown.midX), y: Int(shown.maxY) + 5)
        #expect(shadow.red < 0x80 && shadow.red > 0x40)                      // grey darkened, not black
        // The strip's own content stays clipped: left of the strip is the window background.
        #expect(bitmap.color(x: 50, y: 520) == Color(rgb: 0x808080))
        #expect(strip.clipsToBounds)
    }
}
