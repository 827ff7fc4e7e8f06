import Testing
import Graphics
import UI
@testable import Widgets

/// The overlay's header and gesture labels keep to the top right, clear of a screen's own
/// controls in the top left (the album's "‹ Grid" button).
@Suite struct TouchOverlayLayoutTests {
    @Test func theHeaderLeavesTheTopLeftCornerUncovered() {
        let clock = ManualClock(now: 0)
        let window = Window(size: Size(width: 1280, height: 720), clock: clock)
        let screen = View(frame: window.bounds)
        screen.backgroundColor = Color(rgb: 0x336699)
        window.addSubview(screen)
        let overlay = TouchOverlayView(frame: window.bounds)
        window.addSubview(overlay)
        overlay.flash("double tap")
        let bitmap = Bitmap(width: 1280, height: 720)
        window.render(into: Canvas(target: bitmap))
        #expect(overlay.headerFrame.minX > 640)
        #expect(overlay.headerFrame.maxX <= 1280)
        // Where the album's back button sits (at most 240×80 from the corner): untouched.
        for y in stride(from: 0, to: 80, by: 4) {
            for x in stride(from: 0, to: 240, by: 4) where bitmap.color(x: x, y: y) != Color(rgb: 0x336699) {
                Issue.record("overlay drew at \(x),\(y)")
                return
            }
        }
        // The header and the label are drawn (dark backing) in the top right.
        let header = overlay.headerFrame
        #expect(bitmap.color(x: Int(header.midX), y: Int(header.maxY) - 2) != Color(rgb: 0x336699))
    }
}
