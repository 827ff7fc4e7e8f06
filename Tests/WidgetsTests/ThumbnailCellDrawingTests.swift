import Testing
import Graphics
import UI
@testable import Widgets

/// Thumbnails in cells at fractional positions are copied 1:1 (no resampling) at zoom 1.
@Suite struct ThumbnailCellDrawingTests {
    /// A bitmap whose every pixel is distinct, so any resampling or offset shows.
    func pattern(width: Int, height: Int) -> Bitmap {
        let b = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { b.setPixel(x: x, y: y, UInt32(x * 251 + y * 65_537) & 0xFF_FFFF) }
        }
        return b
    }

    func render(cellFrame: Rect, thumbnail: Bitmap) -> Bitmap {
        let window = Window(size: Size(width: 400, height: 300), clock: ManualClock())
        let cell = ThumbnailCellView(frame: cellFrame)
        cell.state = .image(thumbnail)
        window.addSubview(cell)
        let target = Bitmap(width: 400, height: 300)
        window.render(into: Canvas(target: target))
        return target
    }

    @Test func aThumbnailCoveringTheCellIsCopiedPixelForPixelIntoTheSnappedCell() {
        // Cell 100.4 x 100.4 at (10.3, 20.6): snaps to x 10..<111, y 21..<121 (101 x 100 pixels).
        let thumb = pattern(width: 160, height: 101)
        let out = render(cellFrame: Rect(x: 10.3, y: 20.6, width: 100.4, height: 100.4), thumbnail: thumb)
        let (w, h) = (101, 100)
        let sx = (160 - w) / 2, sy = (101 - h) / 2
        for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (50, 37), (13, 88)] {
            #expect(out.pixel(x: 10 + x, y: 21 + y) & 0xFF_FFFF == thumb.pixel(x: sx + x, y: sy + y), "(\(x), \(y))")
        }
        // Nothing outside the snapped cell.
        #expect(out.pixel(x: 9, y: 50) & 0xFF_FFFF == 0)
        #expect(out.pixel(x: 111, y: 50) & 0xFF_FFFF == 0)
        #expect(out.pixel(x: 50, y: 121) & 0xFF_FFFF == 0)
    }

    @Test func aThumbnailSmallerThanTheCellIsScaledToFillIt() {
        let thumb = RecordingProvider.solid(.red, size: 40)
        let out = render(cellFrame: Rect(x: 10, y: 10, width: 100, height: 100), thumbnail: thumb)
        #expect(out.color(x: 12, y: 12) == .red)
        #expect(out.color(x: 108, y: 108) == .red)
        #expect(out.pixel(x: 111, y: 50) & 0xFF_FFFF == 0)
    }
}
