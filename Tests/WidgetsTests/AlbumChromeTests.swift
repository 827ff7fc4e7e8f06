import Testing
import Graphics
import UI
@testable import Widgets

/// The album's chrome: the page indicator (its colours, tap and drag paging), the filmstrip
/// (follows the page, opens on tap, reorders by drag) and the chrome staying while in use.
@Suite struct AlbumChromeTests {
    /// A photo of one colour filling every page, so the indicator is drawn over it.
    func harness(count: Int, start: Int = 0, photo color: Color = .black, size: Size = Size(width: 800, height: 480)) -> AlbumHarness {
        let h = AlbumHarness(count: count, size: size, start: start)
        for i in 0..<count {
            h.provider.contents[i] = PhotoContent(bitmap: solid(color, width: 800, height: 480), quality: .screen,
                                                originalSize: Size(width: 800, height: 480))
            h.album.photoDidChange(at: i)
        }
        return h
    }

    /// Centre of dot `i` in window coordinates.
    func dot(_ i: Int, _ h: AlbumHarness) -> Point {
        h.album.indicator.convert(h.album.indicator.dotFrame(i).center, to: nil)
    }

    func brightness(_ c: Color) -> Int { (Int(c.red) + Int(c.green) + Int(c.blue)) / 3 }

    // MARK: Indicator colours

    @Test(arguments: [Color.black, Color.white, Color(rgb: 0x707070)])
    func theOtherDotsStandClearOfThePillOnAnyPhoto(photo: Color) {
        let h = harness(count: 5, start: 2, photo: photo)
        let screen = h.render()
        let indicator = h.album.indicator
        // The pill between dots 0 and 1, where no dot is drawn.
        let between = indicator.convert(Point(x: (indicator.dotFrame(0).maxX + indicator.dotFrame(1).minX) / 2,
                                              y: indicator.dotFrame(0).midY), to: nil)
        let pill = screen.color(x: Int(between.x), y: Int(between.y))
        for i in [0, 1, 3, 4] {
            let p = dot(i, h)
            let other = screen.color(x: Int(p.x), y: Int(p.y))
            // Clearly visible: at least a fifth of the range brighter than the pill around it.
            #expect(brightness(other) - brightness(pill) >= 50, "dot \(i) \(other) on pill \(pill) over \(photo)")
        }
        let current = dot(2, h)
        #expect(screen.color(x: Int(current.x), y: Int(current.y)) == .white)
        // And the pill itself reads as dark backing over the photo (not the photo's own colour).
        #expect(brightness(pill) < brightness(photo) || brightness(photo) == 0)
    }

    @Test func theIndicatorsPictureFollowsThePage() {
        // The indicator is drawn once into a picture (DrawingCache) and blended after: a new
        // page must draw it again.
        let h = harness(count: 5, start: 1, photo: .black)
        var screen = h.render()
        #expect(screen.color(x: Int(dot(1, h).x), y: Int(dot(1, h).y)) == .white)
        h.album.setCenterPageIndex(3, animated: false)
        screen = h.render()
        #expect(screen.color(x: Int(dot(3, h).x), y: Int(dot(3, h).y)) == .white)
        #expect(screen.color(x: Int(dot(1, h).x), y: Int(dot(1, h).y)) != .white)
        // And it fades with the rest of the chrome.
        for _ in 0..<150 { h.advance(by: AlbumHarness.frame) }
        screen = h.render()
        #expect(screen.color(x: Int(dot(3, h).x), y: Int(dot(3, h).y)) == .black)
    }

    @Test func dotsAreRoundAndAntiAliased() {
        let h = harness(count: 3, start: 1, photo: .black)
        let screen = h.render()
        let frame = h.album.indicator.convert(h.album.indicator.dotFrame(1), to: nil)
        // The square's corner is outside the circle: (almost) pill, not white.
        let corner = screen.color(x: Int(frame.minX), y: Int(frame.minY))
        #expect(brightness(corner) < 60)
        // Round the dot's edge the coverage is partial: pixels between pill and white.
        var partial = 0
        for y in Int(frame.minY)...Int(frame.maxY) {
            for x in Int(frame.minX)...Int(frame.maxX) where (40...215).contains(brightness(screen.color(x: x, y: y))) { partial += 1 }
        }
        #expect(partial >= 8, "\(partial)")
    }

    // MARK: Indicator paging

    @Test func tappingRightOfTheCurrentDotGoesForwardAndLeftGoesBack() {
        let h = harness(count: 6, start: 2)
        h.tap(dot(4, h))
        h.settle()
        #expect(h.album.centerPageIndex == 3)              // one page, as UIPageControl
        h.advance(by: 0.5)
        h.tap(dot(0, h))
        h.settle()
        #expect(h.album.centerPageIndex == 2)
        // Beside the pill but inside the touch area still counts.
        let indicator = h.album.indicator
        let right = indicator.convert(Point(x: indicator.bounds.maxX - 2, y: indicator.bounds.minY + 2), to: nil)
        h.advance(by: 0.5)
        h.tap(right)
        h.settle()
        #expect(h.album.centerPageIndex == 3)
    }

    @Test func draggingAlongTheDotsScrubsToTheDotUnderTheFinger() {
        let h = harness(count: 8, start: 0)
        let start = dot(0, h)
        h.touch(.began, start)
        var seen: [Int] = []
        for i in 1...6 {
            h.advance(by: AlbumHarness.frame)
            h.touch(.moved, dot(i, h))
            seen.append(h.album.centerPageIndex)
        }
        h.touch(.ended, dot(6, h))
        h.settle()
        #expect(seen == [1, 2, 3, 4, 5, 6])
        #expect(h.album.centerPageIndex == 6)
        #expect(h.album.indicator.currentPage == 6)
    }

    @Test func draggingAlongTheCounterScrubsByPosition() {
        let h = harness(count: 200, start: 0)
        let indicator = h.album.indicator
        #expect(!indicator.usesDots)
        let pill = indicator.convert(indicator.pillFrame, to: nil)
        h.touch(.began, Point(x: pill.minX + 2, y: pill.midY))
        for i in 1...10 {
            h.advance(by: AlbumHarness.frame)
            h.touch(.moved, Point(x: pill.minX + 2 + (pill.width - 4) * Double(i) / 10 * 0.5, y: pill.midY))
        }
        h.touch(.ended, Point(x: pill.midX, y: pill.midY))
        h.settle()
        #expect((98...101).contains(h.album.centerPageIndex))
    }

    // MARK: Filmstrip

    @Test func theFilmstripRunsAlongTheBottomUnderTheIndicator() {
        let h = harness(count: 12)
        let strip = h.album.filmstrip
        #expect(!strip.isHidden)
        #expect(strip.frame.maxY == h.album.bounds.maxY)
        #expect(strip.frame.width == h.album.bounds.width)
        #expect(h.album.indicator.frame.maxY <= strip.frame.minY)
        #expect(strip.itemCount == 12)
    }

    @Test func theFilmstripFollowsTheCurrentPage() {
        let h = harness(count: 40, start: 0)
        let strip = h.album.filmstrip
        #expect(strip.selectedIndex == 0)
        h.album.setCenterPageIndex(25, animated: false)
        for _ in 0..<60 { h.advance(by: AlbumHarness.frame) }
        #expect(strip.selectedIndex == 25)
        // Scrolled on its own so the current thumbnail is in the middle.
        let cell = strip.layout.frame(of: 25)
        #expect(abs(cell.midX - strip.bounds.midX) < 1)
        #expect(strip.itemView(at: 25)?.isSelected == true)
        #expect(strip.itemView(at: 24)?.isSelected == false)
        // Paging by swipe moves it along too.
        h.drag(from: Point(x: 600, y: 200), to: Point(x: 300, y: 200), duration: 0.1)
        h.settle()
        for _ in 0..<60 { h.advance(by: AlbumHarness.frame) }
        #expect(h.album.centerPageIndex == 26)
        #expect(strip.selectedIndex == 26)
        #expect(abs(strip.layout.frame(of: 26).midX - strip.bounds.midX) < 1)
    }

    @Test func tappingAThumbnailOpensItsPhoto() {
        let h = harness(count: 10, start: 0)
        let strip = h.album.filmstrip
        let target = strip.convert(strip.layout.frame(of: 3).center, to: nil)
        h.tap(target)
        h.settle()
        #expect(h.album.centerPageIndex == 3)
        #expect(strip.selectedIndex == 3)
    }

    @Test func draggingAThumbnailReordersAndTheAlbumKeepsItsPhoto() throws {
        let h = harness(count: 10, start: 1)
        var moves: [(Int, Int)] = []
        h.album.onMovePhoto = { from, to in
            moves.append((from, to))
            h.provider.captions.move(from: from, to: to)
        }
        let strip = h.album.filmstrip
        let a = strip.convert(strip.layout.frame(of: 1).center, to: nil)
        let b = strip.convert(strip.layout.frame(of: 3).center, to: nil)
        h.touch(.began, a)
        for _ in 0..<12 { h.advance(by: AlbumHarness.frame) }          // rest past the content-touch delay
        let steps = 10
        for i in 1...steps {
            h.advance(by: AlbumHarness.frame)
            h.touch(.moved, a + (b - a) * (Double(i) / Double(steps)))
        }
        #expect(strip.isReordering)
        // The chrome stays while the thumbnail is carried, however long.
        for _ in 0..<180 { h.advance(by: AlbumHarness.frame) }
        #expect(h.album.isChromeVisible)
        h.touch(.ended, b)
        for _ in 0..<60 { h.advance(by: AlbumHarness.frame) }
        let move = try #require(moves.first)
        #expect(move == (1, 3))
        // The photo shown (photo 1) is now at index 3, and still the one shown.
        #expect(h.album.centerPageIndex == 3)
        #expect(h.album.caption.text == "photo1.jpg")
        #expect(strip.selectedIndex == 3)
    }

    @Test func indexAfterAMoveFollowsThePhoto() {
        #expect(PhotoAlbumView.index(of: 2, afterMoving: 2, to: 7) == 7)
        #expect(PhotoAlbumView.index(of: 4, afterMoving: 2, to: 7) == 3)
        #expect(PhotoAlbumView.index(of: 4, afterMoving: 7, to: 2) == 5)
        #expect(PhotoAlbumView.index(of: 9, afterMoving: 2, to: 7) == 9)
    }

    @Test func aTouchAnywhereBringsTheFadedChromeBack() {
        let h = harness(count: 5, start: 1)
        for _ in 0..<150 { h.advance(by: AlbumHarness.frame) }
        #expect(!h.album.isChromeVisible)
        #expect(h.album.filmstrip.alpha < 0.01)
        h.touch(.began, Point(x: 400, y: 200))
        #expect(h.album.isChromeVisible)
        #expect(h.album.filmstrip.alpha == 1)
        h.touch(.ended, Point(x: 400, y: 200))
    }

    @Test func oneSinglePhotoHasNoFilmstrip() {
        let h = harness(count: 1)
        #expect(h.album.filmstrip.isHidden)
    }
}
