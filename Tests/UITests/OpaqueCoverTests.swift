import Testing
import Graphics
@testable import UI

/// A view under an opaque subview that covers the area being drawn does not draw itself there
/// (Window+Rendering): the picture is the same, with one fill fewer.
@Suite struct OpaqueCoverTests {
    final class CountingView: View {
        var draws = 0
        override func draw(in context: DrawContext) {
            draws += 1
            context.fill(Rect(x: 0, y: 0, width: 10, height: 10), color: .white)
        }
    }

    func makeScene() -> (Window, CountingView, View, Bitmap) {
        let window = Window(size: Size(width: 100, height: 80), clock: ManualClock())
        let parent = CountingView(frame: Rect(x: 0, y: 0, width: 100, height: 80))
        parent.backgroundColor = .red
        let cover = View(frame: Rect(x: 0, y: 0, width: 100, height: 80))
        cover.backgroundColor = .blue
        parent.addSubview(cover)
        window.addSubview(parent)
        return (window, parent, cover, Bitmap(width: 100, height: 80))
    }

    @Test func aCoveredViewSkipsItsOwnDrawing() {
        let (window, parent, _, bitmap) = makeScene()
        window.render(into: Canvas(target: bitmap))
        #expect(parent.draws == 0)
        #expect(bitmap.color(x: 5, y: 5) == .blue && bitmap.color(x: 99, y: 79) == .blue)
    }

    @Test func aPartlyCoveredTranslucentOrHiddenCoverLetsItDraw() {
        let (window, parent, cover, bitmap) = makeScene()
        let canvas = Canvas(target: bitmap)
        cover.frame = Rect(x: 0.4, y: 0, width: 100, height: 80)     // snaps to the same pixels: still covered
        window.render(into: canvas)
        #expect(parent.draws == 0)
        cover.frame = Rect(x: 0.6, y: 0, width: 100, height: 80)     // column 0 uncovered
        window.render(into: canvas)
        #expect(parent.draws == 1)
        #expect(bitmap.color(x: 0, y: 5) == .white && bitmap.color(x: 0, y: 50) == .red && bitmap.color(x: 5, y: 5) == .blue)
        cover.frame = Rect(x: 0, y: 0, width: 100, height: 80)
        cover.alpha = 0.5
        window.render(into: canvas)
        #expect(parent.draws == 2)
        #expect(bitmap.color(x: 50, y: 50) != .blue && bitmap.color(x: 50, y: 50) != .red)
        cover.alpha = 1
        cover.isHidden = true
        window.render(into: canvas)
        #expect(parent.draws == 3)
        #expect(bitmap.color(x: 50, y: 50) == .red && bitmap.color(x: 5, y: 5) == .white)
        cover.isHidden = false
        cover.backgroundColor = Color(rgb: 0x0000FF, alpha: 254)
        window.render(into: canvas)
        #expect(parent.draws == 4, "a background that is not fully opaque does not cover")
    }

    @Test("an opaque view deeper down covers too (a playing clip inside its page), unless a view between clips it away or fades it")
    func aDeeperOpaqueViewCovers() {
        let window = Window(size: Size(width: 100, height: 80), clock: ManualClock())
        let parent = CountingView(frame: Rect(x: 0, y: 0, width: 100, height: 80))
        parent.backgroundColor = .red
        let page = View(frame: Rect(x: 0, y: 0, width: 100, height: 80))  // no background of its own
        let clip = View(frame: Rect(x: 0, y: 10, width: 100, height: 60))
        clip.backgroundColor = .blue
        page.addSubview(clip)
        parent.addSubview(page)
        window.addSubview(parent)
        let bitmap = Bitmap(width: 100, height: 80)
        let canvas = Canvas(target: bitmap)
        window.render(into: canvas)
        #expect(parent.draws == 1, "the whole window is not covered by the clip")
        window.setNeedsDisplay(Rect(x: 10, y: 20, width: 30, height: 30))
        window.render(into: canvas)
        #expect(parent.draws == 1, "an area inside the clip is painted by the clip alone")
        #expect(bitmap.color(x: 20, y: 30) == .blue && bitmap.color(x: 20, y: 5) == .red)
        page.clipsToBounds = true
        page.frame = Rect(x: 0, y: 0, width: 100, height: 40)  // the clip's lower part is cut away
        window.setNeedsDisplay(Rect(x: 10, y: 30, width: 30, height: 20))
        window.render(into: canvas)
        #expect(parent.draws == 2)
        page.frame = Rect(x: 0, y: 0, width: 100, height: 80)
        page.alpha = 0.5
        window.setNeedsDisplay(Rect(x: 10, y: 20, width: 30, height: 30))
        window.render(into: canvas)
        #expect(parent.draws == 3, "a faded view between lets what is behind show")
    }
}
