import Glibc
import Testing
@testable import Graphics

/// Anti-aliased shapes drawn by pixman's trapezoid rasteriser (Canvas+Shapes).
@Suite struct ShapeTests {
    func canvas(_ width: Int = 40, _ height: Int = 40, background: Color = .black) -> (Bitmap, Canvas) {
        let b = Bitmap(width: width, height: height)
        let c = Canvas(target: b)
        c.clear(background)
        return (b, c)
    }

    @Test func aCircleIsFullInsideEmptyOutsideAndSoftOnItsEdge() {
        let (b, c) = canvas()
        c.fillEllipse(in: Rect(x: 10, y: 10, width: 20, height: 20), color: .white)
        #expect(b.color(x: 20, y: 20) == .white)
        #expect(b.color(x: 11, y: 11) == .black)          // the bounding square's corner
        #expect(b.color(x: 5, y: 20) == .black)
        // The edge is soft: round its ~63-pixel perimeter many pixels are partly covered.
        var partial = 0
        for y in 8..<32 { for x in 8..<32 where (16...239).contains(Int(b.color(x: x, y: y).red)) { partial += 1 } }
        #expect(partial > 30, "\(partial) partly covered pixels")
        // Symmetric: left and right edges get the same coverage.
        #expect(b.color(x: 10, y: 20) == b.color(x: 29, y: 20))
    }

    @Test func aRoundedRectKeepsStraightSidesAndRoundsItsCorners() {
        let (b, c) = canvas(60, 40)
        c.fillRoundedRect(Rect(x: 10, y: 10, width: 40, height: 20), radius: 6, color: .white)
        #expect(b.color(x: 30, y: 10) == .white)           // top edge, away from the corners
        #expect(b.color(x: 30, y: 9) == .black)
        #expect(b.color(x: 10, y: 20) == .white)
        #expect(b.color(x: 10, y: 10) == .black)           // the corner pixel is cut away
        #expect(b.color(x: 49, y: 29) == .black)
    }

    @Test func translucentShapesBlendAndRespectClipAndTranslation() {
        let (b, c) = canvas()
        c.save()
        c.translate(by: Point(x: 5, y: 0))
        c.clip(to: Rect(x: 0, y: 0, width: 15, height: 40))
        c.fillRoundedRect(Rect(x: 0, y: 0, width: 30, height: 30), radius: 0, color: Color(rgb: 0xFFFFFF, alpha: 128))
        c.restore()
        #expect(b.color(x: 4, y: 10) == .black)            // left of the translated shape
        let inside = b.color(x: 10, y: 10)
        #expect(inside.red > 120 && inside.red < 136)      // half white over black
        #expect(b.color(x: 20, y: 10) == .black)           // clipped away
        // The clip region was only for that shape: a later fill reaches past it.
        c.fill(Rect(x: 30, y: 30, width: 5, height: 5), color: .red)
        #expect(b.color(x: 32, y: 32) == .red)
    }

    @Test func theOutlineStaysInsideItsRectangleAndIsFineEnough() {
        let outline = RoundedRectOutline(rect: Rect(x: 0, y: 0, width: 100, height: 50), radius: 80)
        #expect(outline.radius == 25)                      // clamped to half the short side
        #expect(outline.points.allSatisfy { $0.x >= -1e-9 && $0.x <= 100 + 1e-9 && $0.y >= -1e-9 && $0.y <= 50 + 1e-9 })
        // Chord error under a tenth of a pixel: 25·(1 − cos(π/4/n)) ≤ 0.1.
        let n = Double(outline.segmentsPerCorner)
        #expect(25 * (1 - cos(Double.pi / 4 / n)) <= 0.1)
        #expect(RoundedRectOutline(rect: Rect(x: 0, y: 0, width: 10, height: 10), radius: 0).points.count == 4)
    }

    @Test func theSlabsTileTheShapeFromTopToBottom() {
        let outline = RoundedRectOutline(rect: Rect(x: 3, y: 5, width: 60, height: 30), radius: 10)
        let slabs = outline.slabs
        #expect(slabs.first?.top == 5)
        #expect(abs((slabs.last?.bottom ?? 0) - 35) < 1e-9)
        for (a, b) in zip(slabs, slabs.dropFirst()) { #expect(abs(a.bottom - b.top) < 1e-9) }
        // Trapezoid areas add up to the rounded rectangle's (up to the polygon's chords).
        func x(_ edge: (Point, Point), _ y: Double) -> Double {
            edge.0.x + (edge.1.x - edge.0.x) * (y - edge.0.y) / (edge.1.y - edge.0.y)
        }
        let area = slabs.reduce(0.0) { sum, s in
            sum + ((x(s.right, s.top) - x(s.left, s.top)) + (x(s.right, s.bottom) - x(s.left, s.bottom))) / 2 * (s.bottom - s.top)
        }
        let exact = 60.0 * 30 - (4 - Double.pi) * 100
        #expect(abs(area - exact) < 5, "\(area) vs \(exact)")
    }

    @Test func aShadowDarkensAroundTheShapeAndFadesOutward() {
        let (b, c) = canvas(60, 60, background: .white)
        c.fillShadow(of: Rect(x: 20, y: 20, width: 20, height: 20), radius: 4, offset: .zero, spread: 6, color: Color(rgb: 0, alpha: 120))
        let near = b.color(x: 18, y: 30).red, far = b.color(x: 15, y: 30).red
        #expect(near < far)
        #expect(far < 255)
        #expect(b.color(x: 5, y: 30) == .white)
    }
}
