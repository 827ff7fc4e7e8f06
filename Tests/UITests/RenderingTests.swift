import Testing
import Graphics
@testable import UI

@Suite struct RenderingTests {
    static let sentinel = Color(rgb: 0xFF00FF)

    /// Window 200x200 (grey) with two 20x20 squares far apart.
    func makeScene() -> (Harness, View, View, Bitmap, Canvas) {
        let h = Harness(width: 200, height: 200)
        h.window.backgroundColor = .gray
        let a = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        a.backgroundColor = .red
        let b = View(frame: Rect(x: 160, y: 160, width: 20, height: 20))
        b.backgroundColor = .blue
        h.window.addSubview(a)
        h.window.addSubview(b)
        let bitmap = Bitmap(width: 200, height: 200)
        let canvas = Canvas(target: bitmap)
        return (h, a, b, bitmap, canvas)
    }

    /// Paints the whole bitmap so that any pixel the next render leaves alone stays magenta.
    func paintSentinel(_ bitmap: Bitmap) {
        Canvas(target: bitmap).fill(Rect(x: 0, y: 0, width: 200, height: 200), color: Self.sentinel)
    }

    @Test func firstRenderDrawsEverything() {
        let (h, _, _, bitmap, canvas) = makeScene()
        let damage = h.window.render(into: canvas)
        #expect(damage == [PixelRect(x: 0, y: 0, width: 200, height: 200)])
        #expect(bitmap.color(x: 15, y: 15) == .red)
        #expect(bitmap.color(x: 170, y: 170) == .blue)
        #expect(bitmap.color(x: 100, y: 100) == .gray)
        #expect(!h.window.needsDisplay)
        #expect(h.window.render(into: canvas).isEmpty)
    }

    @Test func onlyTheChangedViewIsRedrawn() {
        let (h, a, _, bitmap, canvas) = makeScene()
        h.window.render(into: canvas)
        paintSentinel(bitmap)
        a.backgroundColor = .green
        let damage = h.window.render(into: canvas)
        #expect(damage == [PixelRect(x: 10, y: 10, width: 20, height: 20)])
        #expect(bitmap.color(x: 15, y: 15) == .green)
        #expect(bitmap.color(x: 9, y: 15) == Self.sentinel)
        #expect(bitmap.color(x: 170, y: 170) == Self.sentinel)
    }

    @Test func farApartChangesStayTwoRectangles() {
        let (h, a, b, bitmap, canvas) = makeScene()
        h.window.render(into: canvas)
        paintSentinel(bitmap)
        a.backgroundColor = .white
        b.backgroundColor = .white
        let damage = h.window.render(into: canvas)
        #expect(damage.count == 2)
        #expect(damage.reduce(0) { $0 + $1.area } == 800)
        #expect(bitmap.color(x: 100, y: 100) == Self.sentinel)
        #expect(bitmap.color(x: 15, y: 15) == .white && bitmap.color(x: 175, y: 175) == .white)
    }

    @Test func movingAViewDamagesOldAndNewPlaces() {
        let (h, a, _, bitmap, canvas) = makeScene()
        h.window.render(into: canvas)
        paintSentinel(bitmap)
        a.position = Point(x: 25, y: 10)  // overlaps its old place: one merged rectangle
        let damage = h.window.render(into: canvas)
        #expect(damage == [PixelRect(x: 10, y: 10, width: 35, height: 20)])
        #expect(bitmap.color(x: 12, y: 12) == .gray)
        #expect(bitmap.color(x: 40, y: 12) == .red)
        #expect(bitmap.color(x: 100, y: 100) == Self.sentinel)
    }

    @Test func hidingAndClippingAndAlpha() {
        let (h, a, b, bitmap, canvas) = makeScene()
        let child = View(frame: Rect(x: 10, y: 10, width: 40, height: 40))
        child.backgroundColor = .white
        a.addSubview(child)
        h.window.render(into: canvas)
        #expect(bitmap.color(x: 45, y: 45) == .white)  // a does not clip
        a.clipsToBounds = true
        h.window.render(into: canvas)
        #expect(bitmap.color(x: 45, y: 45) == .gray)
        #expect(bitmap.color(x: 25, y: 25) == .white)
        b.isHidden = true
        h.window.render(into: canvas)
        #expect(bitmap.color(x: 170, y: 170) == .gray)
        b.isHidden = false
        b.alpha = 0.5
        h.window.render(into: canvas)
        let px = bitmap.color(x: 170, y: 170)
        #expect(abs(Int(px.blue) - (255 + 128) / 2) <= 2 && abs(Int(px.red) - 64) <= 2)
    }

    @Test func scaledViewDrawsThroughTheContext() {
        final class Checker: View {
            override func draw(in context: DrawContext) {
                context.fill(Rect(x: 0, y: 0, width: 10, height: 10), color: .white)
                context.fill(Rect(x: 10, y: 10, width: 10, height: 10), color: .green)
            }
        }
        let h = Harness(width: 100, height: 100)
        let v = Checker(frame: Rect(x: 0, y: 0, width: 20, height: 20))
        v.transform = ViewTransform(scale: 3)
        v.position = Point(x: 5, y: 5)
        h.window.addSubview(v)
        let bitmap = Bitmap(width: 100, height: 100)
        h.window.render(into: Canvas(target: bitmap))
        #expect(bitmap.color(x: 5, y: 5) == .white)
        #expect(bitmap.color(x: 34, y: 34) == .white)
        #expect(bitmap.color(x: 35, y: 35) == .green)
        #expect(bitmap.color(x: 64, y: 64) == .green)
        #expect(bitmap.color(x: 65, y: 65) == .black)
    }

    @Test func resizingTheWindowRedrawsEverything() {
        let (h, _, _, _, canvas) = makeScene()
        h.window.render(into: canvas)
        h.window.frame = Rect(x: 0, y: 0, width: 150, height: 120)
        #expect(h.window.pendingDamage == [PixelRect(x: 0, y: 0, width: 150, height: 120)])
    }

    @Test func damageRegionMergesOverlapsAndCapsTheCount() {
        var region = Region(bounds: PixelRect(x: 0, y: 0, width: 1000, height: 1000))
        region.add(PixelRect(x: 0, y: 0, width: 100, height: 100))
        region.add(PixelRect(x: 50, y: 0, width: 100, height: 100))
        #expect(region.rects == [PixelRect(x: 0, y: 0, width: 150, height: 100)])
        region.add(PixelRect(x: 10, y: 10, width: 10, height: 10))
        #expect(region.rects.count == 1)
        for i in 0..<20 { region.add(PixelRect(x: 40 * i + 200, y: 47 * i + 200, width: 5, height: 5)) }
        #expect(region.rects.count <= Region.defaultMaxRects)
        region.add(PixelRect(x: -50, y: -50, width: 20, height: 20))
        #expect(region.rects.allSatisfy { $0.x >= 0 && $0.y >= 0 })
    }
}
