import Graphics
import Testing
@testable import PhotoKioskApp

/// Slides composed once per photo: aspect-fit photo, and a blurred or solid fill beside it.
@Suite struct SlideshowComposerTests {
    /// A portrait photo: red top half, blue bottom half.
    func portrait() -> Bitmap {
        let b = Bitmap(width: 300, height: 600)
        let c = Canvas(target: b)
        c.fill(Rect(x: 0, y: 0, width: 300, height: 300), color: .red)
        c.fill(Rect(x: 0, y: 300, width: 300, height: 300), color: .blue)
        return b
    }

    @Test func portraitOnLandscapeGetsABlurredDarkenedFillOfItself() {
        let slide = SlideComposer.compose(portrait(), screen: Size(width: 1200, height: 600), fill: .blur, background: .white)
        #expect(slide.width == 1200 && slide.height == 600)
        // The photo itself, unscaled in the middle third.
        #expect(slide.color(x: 600, y: 100) == .red)
        #expect(slide.color(x: 600, y: 500) == .blue)
        // The sides: the photo enlarged to cover the screen (its middle band, red over blue),
        // blurred (the red-blue edge becomes a gradient) and darkened, never the background colour.
        let top = slide.color(x: 100, y: 10), bottom = slide.color(x: 100, y: 590), middle = slide.color(x: 100, y: 300)
        #expect(top.red > 120 && top.red < 200 && top.blue < 60)
        #expect(bottom.blue > 120 && bottom.blue < 200 && bottom.red < 60)
        #expect(middle.red > 30 && middle.blue > 30, "blurred across the edge: \(middle)")
        // Smooth: neighbouring columns differ only a little (no blocks from the small blur image).
        for x in stride(from: 0, to: 290, by: 7) {
            let a = slide.color(x: x, y: 280), b = slide.color(x: x + 1, y: 280)
            #expect(abs(Int(a.red) - Int(b.red)) <= 6 && abs(Int(a.blue) - Int(b.blue)) <= 6)
        }
        for y in stride(from: 200, to: 400, by: 3) {
            let a = slide.color(x: 50, y: y), b = slide.color(x: 50, y: y + 1)
            #expect(abs(Int(a.red) - Int(b.red)) <= 8 && abs(Int(a.blue) - Int(b.blue)) <= 8)
        }
    }

    @Test func solidFillUsesTheBackgroundColourAndNoneUsesBlack() {
        let solid = SlideComposer.compose(portrait(), screen: Size(width: 1200, height: 600), fill: .solid, background: Color(rgb: 0x336699))
        #expect(solid.color(x: 10, y: 300) == Color(rgb: 0x336699))
        #expect(solid.color(x: 1190, y: 300) == Color(rgb: 0x336699))
        #expect(solid.color(x: 600, y: 100) == .red)
        let none = SlideComposer.compose(portrait(), screen: Size(width: 1200, height: 600), fill: .none, background: .white)
        #expect(none.color(x: 10, y: 300) == .black)
    }

    @Test func aPhotoOfTheScreensShapeCoversItWithoutFill() {
        let b = Bitmap(width: 400, height: 300)
        Canvas(target: b).clear(.green)
        let slide = SlideComposer.compose(b, screen: Size(width: 800, height: 600), fill: .blur, background: .white)
        for (x, y) in [(0, 0), (799, 599), (400, 300), (0, 599)] {
            #expect(slide.color(x: x, y: y) == .green)
        }
    }
}
