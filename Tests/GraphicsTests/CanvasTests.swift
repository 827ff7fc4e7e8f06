import Basics
import Testing
@testable import Graphics

@Suite struct CanvasTests {
    @Test func fillWritesExactPixelsInsideTheRect() {
        let b = Bitmap(width: 10, height: 10)
        let c = Canvas(target: b)
        c.fill(Rect(x: 2, y: 3, width: 4, height: 5), color: .red)
        #expect(b.color(x: 2, y: 3) == .red)
        #expect(b.color(x: 5, y: 7) == .red)
        #expect(b.color(x: 6, y: 7) == .black)
        #expect(b.color(x: 5, y: 8) == .black)
        #expect(b.color(x: 1, y: 3) == .black)
    }

    @Test func translucentFillBlends() {
        let b = Bitmap(width: 4, height: 4)
        let c = Canvas(target: b)
        c.clear(.white)
        c.fill(Rect(x: 0, y: 0, width: 4, height: 4), color: Color.black.withAlpha(0.5))
        let px = b.color(x: 1, y: 1)
        #expect(abs(Int(px.red) - 128) <= 1)
    }

    @Test func clipLimitsDrawing() {
        let b = Bitmap(width: 10, height: 10)
        let c = Canvas(target: b)
        c.save()
        c.clip(to: Rect(x: 0, y: 0, width: 5, height: 10))
        c.fill(Rect(x: 0, y: 0, width: 10, height: 10), color: .green)
        c.restore()
        #expect(b.color(x: 4, y: 4) == .green)
        #expect(b.color(x: 5, y: 4) == .black)
        c.fill(Rect(x: 5, y: 0, width: 1, height: 1), color: .blue)
        #expect(b.color(x: 5, y: 0) == .blue)
    }

    @Test func translationMovesDrawing() {
        let b = Bitmap(width: 10, height: 10)
        let c = Canvas(target: b)
        c.translate(by: Point(x: 3, y: 4))
        c.fill(Rect(x: 0, y: 0, width: 1, height: 1), color: .white)
        #expect(b.color(x: 3, y: 4) == .white)
        #expect(b.color(x: 0, y: 0) == .black)
    }

    @Test func unitScaleDrawIsAnExactCopy() {
        let src = Bitmap(width: 8, height: 8)
        for y in 0..<8 { for x in 0..<8 { src.setPixel(x: x, y: y, UInt32(x * 16) << 16 | UInt32(y * 16)) } }
        let dst = Bitmap(width: 20, height: 20)
        let c = Canvas(target: dst)
        c.draw(src, from: Rect(x: 2, y: 2, width: 4, height: 4), in: Rect(x: 10, y: 10, width: 4, height: 4))
        for y in 0..<4 { for x in 0..<4 {
            #expect(dst.pixel(x: 10 + x, y: 10 + y) & 0xFFFFFF == src.pixel(x: 2 + x, y: 2 + y) & 0xFFFFFF)
        } }
        #expect(dst.pixel(x: 14, y: 10) == 0)
    }

    @Test func scaledDrawMatchesAReferenceGradient() {
        // A horizontal gradient scaled 2x must stay a monotonic gradient within rounding.
        let src = Bitmap(width: 64, height: 4)
        for y in 0..<4 { for x in 0..<64 { src.setPixel(x: x, y: y, UInt32(x * 4) << 16) } }
        let dst = Bitmap(width: 128, height: 8)
        Canvas(target: dst).draw(src, in: Rect(x: 0, y: 0, width: 128, height: 8))
        for x in 2..<126 {
            // Destination centre x+0.5 samples source (x+0.5)/2 − 0.5 between texels.
            let expected = ((Double(x) + 0.5) / 2 - 0.5) * 4
            let got = Double(dst.color(x: x, y: 4).red)
            #expect(abs(got - expected) <= 1.5, "x=\(x) got \(got) expected \(expected)")
        }
    }

    @Test func scaledDownDrawAveragesNeighbours() {
        let src = Bitmap(width: 4, height: 4)
        for y in 0..<4 { for x in 0..<4 { src.setPixel(x: x, y: y, (x + y) % 2 == 0 ? 0xFFFFFF : 0) } }
        let dst = Bitmap(width: 2, height: 2)
        Canvas(target: dst).draw(src, in: Rect(x: 0, y: 0, width: 2, height: 2))
        let v = Int(dst.color(x: 0, y: 0).red)
        #expect(abs(v - 128) <= 2)
    }

    @Test func drawWithAlphaBlendsOverBackground() {
        let src = Bitmap(width: 2, height: 2)
        for y in 0..<2 { for x in 0..<2 { src.setPixel(x: x, y: y, 0xFFFFFF) } }
        let dst = Bitmap(width: 2, height: 2)
        let c = Canvas(target: dst)
        c.multiplyAlpha(0.25)
        c.draw(src, in: Rect(x: 0, y: 0, width: 2, height: 2))
        #expect(abs(Int(dst.color(x: 1, y: 1).red) - 64) <= 1)
    }
}

@Suite struct FontTests {
    @Test func textRendersNonEmptyGlyphs() throws {
        let font = try Font.standard(pixelSize: 24)
        let b = Bitmap(width: 200, height: 40)
        let c = Canvas(target: b)
        let advance = c.drawText("Hello, kiosk", at: Point(x: 4, y: 30), font: font, color: .white)
        #expect(advance > 100)
        var lit = 0
        for y in 0..<40 { for x in 0..<200 where b.color(x: x, y: y).red > 128 { lit += 1 } }
        #expect(lit > 200)
        #expect(font.width(of: "iiii") < font.width(of: "WWWW"))
    }

    @Test func truncationFitsTheWidth() throws {
        let font = try Font.standard(pixelSize: 16)
        let s = font.truncated("a very long file name that cannot fit.jpg", toFit: 100)
        #expect(font.width(of: s) <= 100)
        #expect(s.hasSuffix("…"))
    }

    @Test func missingFontGivesAClearError() {
        #expect(throws: FontError.self) { try Font(path: "/nonexistent.ttf", pixelSize: 12) }
    }
}

@Suite struct ContentModeTests {
    @Test func aspectFillCropsTheLongSideEvenly() {
        let src = Canvas.aspectFillSource(imageSize: Size(width: 400, height: 200), destination: Size(width: 100, height: 100))
        #expect(src == Rect(x: 100, y: 0, width: 200, height: 200))
        let tall = Canvas.aspectFillSource(imageSize: Size(width: 100, height: 400), destination: Size(width: 200, height: 100))
        #expect(tall == Rect(x: 0, y: 175, width: 100, height: 50))
    }

    @Test func aspectFitLetterboxesWithoutTouchingTheBars() {
        let img = Bitmap(width: 40, height: 20)
        Canvas(target: img).clear(.white)
        let dst = Bitmap(width: 40, height: 40)
        Canvas(target: dst).draw(img, in: Rect(x: 0, y: 0, width: 40, height: 40), mode: .aspectFit)
        #expect(dst.color(x: 20, y: 5) == .black)
        #expect(dst.color(x: 20, y: 20) == .white)
        #expect(dst.color(x: 20, y: 35) == .black)
    }
}

@Suite struct DecimalTextTests {
    @Test func fixedPlacesWithRoundingAndSign() {
        #expect(decimalText(12.5, places: 2) == "12.50")
        #expect(decimalText(0.0049, places: 2) == "0.00")
        #expect(decimalText(-0.25, places: 1) == "-0.3" || decimalText(-0.25, places: 1) == "-0.2")
        #expect(decimalText(-0.001, places: 1) == "0.0")
        #expect(decimalText(3, places: 0) == "3")
        #expect(decimalText(0.123456789, places: 6) == "0.123457")
        #expect(decimalText(-1.25, places: 1) == "-1.3" || decimalText(-1.25, places: 1) == "-1.2")
        #expect(decimalText(1e300, places: 2) == "\(1e300)")
        #expect(decimalText(.infinity, places: 1) == "inf")
    }
}
