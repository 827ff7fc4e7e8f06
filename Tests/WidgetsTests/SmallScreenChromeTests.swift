import Testing
import Graphics
import UI
@testable import Widgets

/// Issue 30 item 6: on a 320x240 panel the album's chrome (caption, dots, filmstrip) covers at
/// most a quarter of the photo, and the clock's date is wrapped, never cut.
@Suite struct SmallScreenChromeTests {
    func coveredFraction(_ album: PhotoAlbumView) -> Double {
        let screen = album.bounds.width * album.bounds.height
        var area = album.filmstrip.isHidden ? 0 : album.filmstrip.frame.width * album.filmstrip.frame.height
        if !album.indicator.isHidden { area += album.indicator.frame.width * album.indicator.frame.height }
        if !album.caption.text.isEmpty { area += album.caption.frame.width * album.caption.frame.height }
        // Every part inside the screen.
        for part in [album.filmstrip.frame, album.caption.frame] {
            #expect(part.minX >= 0 && part.maxX <= album.bounds.width && part.minY >= 0 && part.maxY <= album.bounds.height)
        }
        return area / screen
    }

    @Test("At 320x240 the chrome covers at most a quarter; at 800x480 all of it shows as before",
          arguments: [(Size(width: 320, height: 240), true), (Size(width: 800, height: 480), false)])
    func chromeBudget(size: Size, compact: Bool) throws {
        let h = AlbumHarness(count: 12, size: size, start: 3)
        h.provider.captions = (0..<12).map { _ in "A long caption that describes the garden in the evening light" }
        h.album.metrics = ChromeMetrics(scale: 0.75)
        h.album.font = try Font.standard(pixelSize: 14)
        h.album.setCenterPageIndex(4, animated: false)
        h.album.layoutIfNeeded()
        #expect(h.album.isChromeCompact == compact)
        #expect(coveredFraction(h.album) <= 0.25 + 1e-9, "\(coveredFraction(h.album))")
        #expect(!h.album.caption.text.isEmpty)
        #expect(h.album.caption.frame.width > 60)
        #expect(h.album.filmstrip.frame.height >= 28)
        #expect(h.album.indicator.isHidden == compact)
    }

    @Test("A portrait 240x320 screen: the caption gives way before the dots do")
    func portraitBudget() throws {
        let h = AlbumHarness(count: 12, size: Size(width: 240, height: 320), start: 3)
        h.provider.captions = (0..<12).map { _ in "A long caption that describes the garden in the evening light" }
        h.album.metrics = ChromeMetrics(scale: 0.75)
        h.album.font = try Font.standard(pixelSize: 14)
        h.album.setCenterPageIndex(4, animated: false)
        h.album.layoutIfNeeded()
        #expect(coveredFraction(h.album) <= 0.25 + 1e-9, "\(coveredFraction(h.album))")
    }

    @Test("The clock's date wraps to a second line on a narrow screen instead of ending in …")
    func dateWraps() throws {
        let overlay = InfoOverlayView(frame: Rect(x: 0, y: 0, width: 320, height: 240))
        overlay.font = try Font.standard(pixelSize: 16)
        overlay.largeFont = try Font.standard(pixelSize: 30)
        overlay.setLines([.init("23:18", isLarge: true), .init("Friday 11/27/2026")], in: .bottomRight)
        overlay.layoutIfNeeded()
        let frame = try #require(overlay.blockFrame(in: .bottomRight))
        let font = try Font.standard(pixelSize: 16)
        // Two lines of the small font under the large one: the date was wrapped, and the block is
        // wide enough for its longest part.
        #expect(frame.width >= font.width(of: "11/27/2026") + 20)
        let large = try Font.standard(pixelSize: 30)
        #expect(frame.height >= large.lineHeight + 2 * font.lineHeight + 20 - 1)
        #expect(frame.maxX <= 320 && frame.maxY <= 240)
    }
}

/// Issue 30 item 9: the "‹ Grid" button's backing stays visible over black (side bars) and white.
@Suite struct BackButtonBackingTests {
    func brightness(_ c: Color) -> Int { (Int(c.red) + Int(c.green) + Int(c.blue)) / 3 }

    @Test(arguments: [Color.black, Color.white, Color(rgb: 0x202020)])
    func backingStandsOut(photo: Color) throws {
        let h = AlbumHarness(count: 3, size: Size(width: 800, height: 480), start: 0)
        for i in 0..<3 {
            h.provider.contents[i] = PhotoContent(bitmap: solid(photo, width: 800, height: 480), quality: .screen,
                                                originalSize: Size(width: 800, height: 480))
            h.album.photoDidChange(at: i)
        }
        h.album.font = try Font.standard(pixelSize: 18)
        let screen = h.render()
        let button = h.album.backButton.convert(h.album.backButton.backingFrame, to: nil)
        // The rim (just inside the backing's left edge, half-way down) and the inside (between
        // the edge and the text) both differ from the photo around the button.
        let rim = screen.color(x: Int(button.minX.rounded(.up)), y: Int(button.midY))
        let inside = screen.color(x: Int(button.minX) + 6, y: Int(button.minY) + 6)
        let around = brightness(photo)
        // Over black the light rim marks the edge, over white the dark inside; over dark grey both.
        #expect(max(abs(brightness(rim) - around), abs(brightness(inside) - around)) >= 60, "rim \(rim), inside \(inside) over \(photo)")
        #expect(abs(brightness(rim) - brightness(inside)) >= 40, "rim \(rim) and inside \(inside) look alike")
    }
}
