import Graphics
import Testing
import UI
@testable import Widgets

/// The overlay's corner blocks: where they sit, how wide they may grow, that they darken what
/// is beneath their text and let touches through.
@Suite struct InfoOverlayViewTests {
    let screen = Size(width: 1000, height: 600)

    func makeOverlay() throws -> (InfoOverlayView, Window) {
        let window = Window(size: screen, clock: ManualClock())
        let overlay = InfoOverlayView(frame: Rect(size: screen))
        overlay.font = try Font.standard(pixelSize: 20)
        overlay.largeFont = try Font.standard(pixelSize: 40)
        overlay.margin = 20
        window.addSubview(overlay)
        return (overlay, window)
    }

    @Test func blocksSitInTheirCornersAndStack() throws {
        let (overlay, _) = try makeOverlay()
        overlay.setLines([.init("14:05", isLarge: true), .init("Thursday")], in: .topRight)
        overlay.setLines([.init("Lake Bled"), .init("Bled, Slovenia")], in: .bottomLeft)
        let clock = try #require(overlay.blockFrame(in: .topRight))
        #expect(clock.maxX == 980 && clock.minY == 20)
        let caption = try #require(overlay.blockFrame(in: .bottomLeft))
        #expect(caption.minX == 20 && caption.maxY == 580)
        #expect(clock.height > caption.height + 10, "the large time line makes its block taller than two ordinary lines")
        #expect(overlay.blockFrame(in: .topLeft) == nil)
        overlay.setLines([], in: .topRight)
        #expect(overlay.blockFrame(in: .topRight) == nil)
    }

    @Test func longLinesStopShortOfTheBottomCentre() throws {
        let (overlay, _) = try makeOverlay()
        overlay.setLines([.init(String(repeating: "A very long caption ", count: 20))], in: .bottomRight)
        let block = try #require(overlay.blockFrame(in: .bottomRight))
        #expect(block.width <= screen.width * 0.4)
        #expect(block.minX > screen.width / 2, "the indicator's centre stays free")
    }

    @Test func theBackingDarkensAndTouchesPassThrough() throws {
        let (overlay, window) = try makeOverlay()
        let photo = View(frame: Rect(size: screen))
        photo.backgroundColor = .white
        window.insertSubview(photo, at: 0)
        overlay.setLines([.init("Caption")], in: .bottomLeft)
        let target = Bitmap(width: Int(screen.width), height: Int(screen.height))
        _ = window.render(into: Canvas(target: target))
        let block = try #require(overlay.blockFrame(in: .bottomLeft))
        let backing = target.color(x: Int(block.maxX) - 2, y: Int(block.minY) + 2)
        #expect(backing.red < 140 && backing.red > 90, "\(backing)")
        #expect(target.color(x: 500, y: 300) == .white, "nothing drawn outside the blocks")
        #expect(window.hitTest(block.center) === photo)

        overlay.opacity = 0
        _ = window.render(into: Canvas(target: target))
        #expect(target.color(x: Int(block.maxX) - 2, y: Int(block.minY) + 2) == .white)
    }
}
