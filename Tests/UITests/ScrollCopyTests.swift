import Glibc
import Testing
import Graphics
@testable import UI

/// Scrolling by copy (Window+ScrollCopy): every frame drawn incrementally, copying what it can,
/// must equal the same scene drawn from scratch. Each test builds the scene twice, applies the
/// same changes to both, renders one incrementally and the other with everything damaged, and
/// compares every pixel.
@Suite struct ScrollCopyTests {
    static let width = 300
    static let height = 240

    /// A block that draws a little text-free picture: a scaled bitmap (bilinear) and a translucent
    /// bar, so scaled sampling and blending both have to survive the copy.
    final class PatternView: View {
        let pattern: Bitmap
        init(frame: Rect, seed: Int) {
            pattern = Bitmap(width: 7, height: 5)
            for y in 0..<5 {
                for x in 0..<7 {
                    pattern.setPixel(x: x, y: y, 0xFF00_0000 | UInt32((x * 37 + y * 91 + seed * 53) % 256) << 16
                                     | UInt32((x * 11 + seed * 29) % 256) << 8 | UInt32((y * 67 + seed * 17) % 256))
                }
            }
            super.init(frame: frame)
        }
        override func draw(in context: DrawContext) {
            context.draw(pattern, in: Rect(x: 2.3, y: 1.7, width: bounds.width - 4.1, height: bounds.height * 0.6))
            context.fill(Rect(x: 0, y: bounds.height * 0.55, width: bounds.width * 0.8, height: 6.5),
                         color: Color(rgb: 0xFFFFFF, alpha: 90))
        }
    }

    /// Both copies of the scene: `scroll` is an opaque scroll view (content 900 x 2400) under a
    /// translucent overlay and an opaque badge.
    final class Scene {
        let clock = ManualClock(now: 10)
        let window: Window
        let scroll = ScrollView()
        let overlay = View()
        let badge = View()
        var blocks: [View] = []
        let bitmap = Bitmap(width: ScrollCopyTests.width, height: ScrollCopyTests.height)
        lazy var canvas = Canvas(target: bitmap)

        init() {
            window = Window(size: Size(width: ScrollCopyTests.width, height: ScrollCopyTests.height), clock: clock)
            window.backgroundColor = .gray
            scroll.frame = Rect(x: 12.5, y: 20, width: 250, height: 200)
            scroll.backgroundColor = Color(rgb: 0x101820)
            scroll.contentSize = Size(width: 900, height: 2400)
            window.addSubview(scroll)
            for i in 0..<60 {
                // Fractional places, some on half pixels (the rounding ties).
                let frame = Rect(x: 3.5 + Double(i % 6) * 141.3, y: 2.25 + Double(i / 6) * 233.5 + Double(i % 3) * 0.5,
                                 width: 97.7 + Double(i % 4), height: 120.5)
                let block: View = i % 2 == 0 ? PatternView(frame: frame, seed: i) : View(frame: frame)
                block.backgroundColor = Color(red: UInt8(i * 41 % 256), green: UInt8(i * 73 % 256), blue: UInt8(i * 19 % 256),
                                              alpha: i % 5 == 0 ? 160 : 255)
                let child = View(frame: Rect(x: 30.5, y: 40.25, width: 20, height: 15.5))
                child.backgroundColor = Color(rgb: 0xF0E000, alpha: 200)
                block.addSubview(child)
                scroll.addSubview(block)
                blocks.append(block)
            }
            overlay.frame = Rect(x: 40, y: 100.5, width: 90, height: 50)
            overlay.backgroundColor = Color(rgb: 0x000000, alpha: 120)
            window.addSubview(overlay)
            badge.frame = Rect(x: 200, y: 30, width: 40, height: 22)
            badge.backgroundColor = .white
            window.addSubview(badge)
        }

        func advance(by seconds: Double) {
            clock.advance(by: seconds)
            window.advance(to: clock.now)
        }
    }

    /// Applies `change` to both scenes, renders the first incrementally and the second from
    /// scratch, and compares them; returns whether the incremental frame copied pixels and the
    /// area it drew.
    @discardableResult
    func step(_ scenes: (Scene, Scene), _ label: String, _ change: (Scene) -> Void) -> (copied: Bool, drawnArea: Int) {
        let (incremental, fresh) = scenes
        change(incremental)
        change(fresh)
        let before = incremental.window.copiedFrameCount
        incremental.window.layoutIfNeeded()
        let drawn = incremental.window.pendingDamage.reduce(0) { $0 + $1.area }
        incremental.window.render(into: incremental.canvas)
        fresh.window.setNeedsDisplayAll()
        fresh.window.render(into: fresh.canvas)
        let difference = Self.firstDifference(incremental.bitmap, fresh.bitmap)
        #expect(difference == nil, "\(label): pixel \(difference.map { "\($0)" } ?? "") differs from a full redraw")
        return (incremental.window.copiedFrameCount > before, drawn)
    }

    /// The first pixel (row by row) inside `region` where the two differ.
    static func firstDifference(_ a: Bitmap, _ b: Bitmap, in region: PixelRect? = nil) -> (x: Int, y: Int, got: UInt32, want: UInt32)? {
        let r = (region ?? a.bounds).intersection(a.bounds)
        for y in r.y..<r.maxY where memcmp(a.row(y) + 4 * r.x, b.row(y) + 4 * r.x, 4 * r.width) != 0 {
            for x in r.x..<r.maxX where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
                return (x, y, a.pixel(x: x, y: y), b.pixel(x: x, y: y))
            }
        }
        return nil
    }

    func makeScenes() -> (Scene, Scene) {
        let scenes = (Scene(), Scene())
        step(scenes, "first frame") { _ in }
        return scenes
    }

    @Test func wholePixelScrollsCopyAndMatchAFullRedraw() {
        let scenes = makeScenes()
        let area = 250 * 200
        let moves: [(Double, Double)] = [(0, 17), (0, 17), (0, -5), (0, 40), (0, 1), (0, -1), (13, 0), (-7, 9),
                                         (0, 120), (0, 199), (0, 200), (0, 450), (31, -64), (-31, 0)]
        var copies = 0
        for (i, move) in moves.enumerated() {
            let result = step(scenes, "move \(i) by \(move)") { scene in
                scene.scroll.contentOffset = scene.scroll.contentOffset + Point(x: move.0, y: move.1)
            }
            if result.copied {
                copies += 1
                // What is drawn is the uncovered strip (plus the overlays over it), not the view.
                let strip = Int(abs(move.0)) * 200 + Int(abs(move.1)) * 250
                #expect(result.drawnArea < strip + 2 * (91 * 51 + 41 * 23) + 1000, "move \(i): drew \(result.drawnArea) px")
            } else {
                #expect(abs(move.1) >= 200, "move \(i) by \(move) was redrawn instead of copied")
            }
        }
        #expect(copies == moves.count - 2)
        #expect(area > 0)
    }

    @Test func fractionalMovesRedrawAndWholeMovesFromHalfPixelsCopy() {
        let scenes = makeScenes()
        let fractional = step(scenes, "half pixel") { $0.scroll.contentOffset = Point(x: 0.5, y: 10.5) }
        #expect(!fractional.copied, "a move by half a pixel cannot be copied exactly")
        #expect(!step(scenes, "quarter pixel") { $0.scroll.contentOffset.y += 0.25 }.copied)
        // From a fractional offset, whole-pixel moves still copy: every edge moves by whole pixels.
        for (i, dy) in [17.0, 3, -9, 22].enumerated() {
            #expect(step(scenes, "whole move \(i) from a fractional offset") { $0.scroll.contentOffset.y += dy }.copied)
        }
        #expect(step(scenes, "diagonal from a fractional offset") { $0.scroll.contentOffset = $0.scroll.contentOffset + Point(x: 5, y: -6) }.copied)
    }

    @Test func overlappingSiblingsAreRedrawnWhereTheyWereAndAre() {
        let scenes = makeScenes()
        for i in 0..<8 {
            step(scenes, "scroll under a moving overlay \(i)") { scene in
                scene.overlay.position = scene.overlay.position + Point(x: 7, y: i % 2 == 0 ? 11 : -4)
                scene.scroll.contentOffset.y += 13
            }
            step(scenes, "overlay moves after the scroll \(i)") { scene in
                scene.scroll.contentOffset.y -= 6
                scene.overlay.position = scene.overlay.position + Point(x: -3, y: 5)
            }
        }
        step(scenes, "overlay hidden while scrolling") { scene in
            scene.overlay.isHidden = true
            scene.scroll.contentOffset.y += 21
        }
        step(scenes, "overlay shown again and faded") { scene in
            scene.scroll.contentOffset.y += 8
            scene.overlay.isHidden = false
            scene.overlay.alpha = 0.4
        }
        step(scenes, "a new sibling on top mid-scroll") { scene in
            scene.scroll.contentOffset.y += 5
            let late = View(frame: Rect(x: 150.5, y: 60, width: 60, height: 70.5))
            late.backgroundColor = Color(rgb: 0x40FF40, alpha: 100)
            scene.window.addSubview(late)
            scene.scroll.contentOffset.y += 12
        }
        step(scenes, "the badge changes colour while scrolling") { scene in
            scene.badge.backgroundColor = .red
            scene.scroll.contentOffset.x += 9
        }
        let copied = step(scenes, "plain scroll after all that") { $0.scroll.contentOffset.y += 10 }.copied
        #expect(copied)
    }

    @Test func damageBeforeAndAfterAScrollInTheSameFrame() {
        let scenes = makeScenes()
        step(scenes, "content change, then scroll") { scene in
            scene.blocks[2].backgroundColor = .blue
            scene.blocks[3].subviews[0].position.x += 4
            scene.scroll.contentOffset.y += 30
        }
        step(scenes, "scroll, then content change") { scene in
            scene.scroll.contentOffset.y += 30
            scene.blocks[0].backgroundColor = .green
            scene.blocks[7].isHidden = true
        }
        step(scenes, "several steps in one frame") { scene in
            scene.scroll.contentOffset.y += 9
            scene.blocks[8].backgroundColor = .white
            scene.scroll.contentOffset.y += 4
            scene.scroll.contentOffset.x += 3
            scene.blocks[8].position.y += 2.5
            scene.scroll.contentOffset.y -= 20
        }
        step(scenes, "there and back again in one frame") { scene in
            scene.scroll.contentOffset.y += 50
            scene.blocks[1].backgroundColor = .red
            scene.scroll.contentOffset.y -= 50
        }
        step(scenes, "a block removed and one added mid-scroll") { scene in
            scene.blocks[4].removeFromSuperview()
            scene.scroll.contentOffset.y += 15
            let added = View(frame: Rect(x: 20.5, y: scene.scroll.contentOffset.y + 50.5, width: 80, height: 40))
            added.backgroundColor = Color(rgb: 0xFFFF00)
            scene.scroll.addSubview(added)
        }
        step(scenes, "the scroll view moves as it scrolls") { scene in
            scene.scroll.contentOffset.y += 15
            scene.scroll.position.x += 3
        }
        #expect(step(scenes, "scroll after the move") { $0.scroll.contentOffset.y += 15 }.copied)
    }

    @Test func scrollIndicatorsAreRedrawnAtTheirOldAndNewPlaces() {
        let scenes = makeScenes()
        step(scenes, "indicators appear") { $0.scroll.showIndicators() }
        var copies = 0
        for i in 0..<12 {
            if step(scenes, "scroll with indicators \(i)", { $0.scroll.contentOffset = $0.scroll.contentOffset + Point(x: 4, y: 37) }).copied {
                copies += 1
            }
        }
        #expect(copies == 12)
        step(scenes, "indicators start fading") { scene in
            scene.scroll.fadeIndicators()
            scene.advance(by: 0.1)
            scene.scroll.contentOffset.y += 3
        }
        for i in 0..<30 {
            step(scenes, "fading \(i)") { scene in
                scene.advance(by: 1.0 / 60)
                if i % 3 == 0 { scene.scroll.contentOffset.y -= 2 }
            }
        }
    }

    @Test func aFlingAndABounceMatchAFullRedrawFrameByFrame() {
        let scenes = makeScenes()
        for scene in [scenes.0, scenes.1] {
            let h = (scene.window, scene.clock)
            h.0.dispatch([TouchEvent(slot: 0, phase: .began, location: Point(x: 100, y: 200), timestamp: h.1.now)])
        }
        for i in 1...8 {
            step(scenes, "drag \(i)") { scene in
                scene.advance(by: 1.0 / 60)
                scene.window.dispatch([TouchEvent(slot: 0, phase: .moved, location: Point(x: 100 - Double(i) * 0.7, y: 200 - Double(i) * 23.3),
                                                  timestamp: scene.clock.now)])
            }
        }
        step(scenes, "lift") { scene in
            scene.window.dispatch([TouchEvent(slot: 0, phase: .ended, location: Point(x: 94.4, y: 13.6), timestamp: scene.clock.now)])
        }
        var frames = 0, copies = 0
        while scenes.0.window.nextDeadline != nil, frames < 400 {
            let offsetBefore = scenes.0.scroll.contentOffset
            let result = step(scenes, "fling frame \(frames)") { $0.advance(by: 1.0 / 60) }
            if result.copied { copies += 1 }
            let offset = scenes.0.scroll.contentOffset
            #expect(offset.y == offset.y.rounded(), "fling frame \(frames) shows a fractional offset \(offset.y)")
            // Only the indicators' fade (no move) may leave a frame without a copy.
            if offset != offsetBefore { #expect(result.copied, "fling frame \(frames) moved but was redrawn") }
            frames += 1
        }
        #expect(frames > 20)
        #expect(copies > frames / 2)
    }

    @Test func animatedScrollsShowWholePixelOffsetsAndCopy() {
        let scenes = makeScenes()
        step(scenes, "start") { $0.scroll.setContentOffset(Point(x: 33.3, y: 517.7), animated: true) }
        var copies = 0
        for i in 0..<24 {
            let result = step(scenes, "animation frame \(i)") { $0.advance(by: 1.0 / 60) }
            if result.copied { copies += 1 }
            let offset = scenes.0.scroll.contentOffset
            if scenes.0.scroll.isMoving {
                #expect(offset.x == offset.x.rounded() && offset.y == offset.y.rounded(), "frame \(i): \(offset)")
            }
        }
        #expect(copies >= 15)
        // The animation still ends exactly where it was asked to go.
        #expect(scenes.0.scroll.contentOffset == Point(x: 33.3, y: 517.7))
    }

    @Test func aTranslucentScrollViewKeepsExactOffsetsAndRedraws() {
        let scenes = makeScenes()
        step(scenes, "no background") { $0.scroll.backgroundColor = nil }
        step(scenes, "start") { $0.scroll.setContentOffset(Point(x: 0, y: 517.7), animated: true) }
        var fractional = 0
        for i in 0..<24 {
            #expect(!step(scenes, "animation frame \(i)") { $0.advance(by: 1.0 / 60) }.copied)
            if scenes.0.scroll.contentOffset.y != scenes.0.scroll.contentOffset.y.rounded() { fractional += 1 }
        }
        #expect(fractional > 10, "offsets of a view that cannot copy are not rounded")
    }

    @Test func aNestedScrollViewAndTwoScrollsInOneFrame() {
        func addInner(_ scene: Scene) -> ScrollView {
            let inner = ScrollView(frame: Rect(x: 20, y: 300.5, width: 150, height: 120))
            inner.backgroundColor = Color(rgb: 0x303060)
            inner.contentSize = Size(width: 150, height: 900)
            for i in 0..<9 {
                let row = View(frame: Rect(x: 5.5, y: Double(i) * 97.25, width: 120, height: 60))
                row.backgroundColor = Color(red: UInt8(i * 29), green: 200, blue: UInt8(255 - i * 20))
                inner.addSubview(row)
            }
            scene.scroll.addSubview(inner)
            return inner
        }
        let scenes = makeScenes()
        let inners = (addInner(scenes.0), addInner(scenes.1))
        step(scenes, "outer scrolls the inner one into view") { $0.scroll.contentOffset.y = 250 }
        func inner(_ scene: Scene) -> ScrollView { scene === scenes.0 ? inners.0 : inners.1 }
        #expect(step(scenes, "inner alone") { inner($0).contentOffset.y += 11 }.copied)
        step(scenes, "inner, then outer in the same frame") { scene in
            inner(scene).contentOffset.y += 7
            scene.scroll.contentOffset.y += 12
        }
        step(scenes, "outer, then inner in the same frame") { scene in
            scene.scroll.contentOffset.y += 12
            inner(scene).contentOffset.y += 7
        }
        #expect(step(scenes, "outer alone") { $0.scroll.contentOffset.y -= 40 }.copied)
    }

    @Test func noCopyIntoAnotherBitmapOrThroughATranslucentAncestor() {
        let scenes = makeScenes()
        let other = Bitmap(width: Self.width, height: Self.height)
        let incremental = scenes.0
        incremental.scroll.contentOffset.y += 10
        scenes.1.scroll.contentOffset.y += 10
        incremental.window.render(into: Canvas(target: other))
        #expect(incremental.window.copiedFrameCount == 0, "the other bitmap never held the previous frame")
        scenes.1.window.setNeedsDisplayAll()
        scenes.1.window.render(into: scenes.1.canvas)
        // The scroll view's clip (12.5…262.5 snaps to 13…263) was redrawn there in full.
        #expect(Self.firstDifference(other, scenes.1.bitmap, in: PixelRect(x: 13, y: 20, width: 250, height: 200)) == nil)
        // Back to the first bitmap: it missed a frame, so everything it lacks is redrawn.
        incremental.window.setNeedsDisplayAll()
        step(scenes, "back to the first bitmap") { _ in }

        let parent = (View(frame: Rect(x: 0, y: 0, width: 300, height: 240)), View(frame: Rect(x: 0, y: 0, width: 300, height: 240)))
        for (scene, p) in [(scenes.0, parent.0), (scenes.1, parent.1)] {
            scene.window.insertSubview(p, at: 0)
            p.addSubview(scene.scroll)
        }
        step(scenes, "reparented") { _ in }
        step(scenes, "translucent parent") { scene in
            (scene === scenes.0 ? parent.0 : parent.1).alpha = 0.5
        }
        let translucent = step(scenes, "scroll under a translucent parent") { $0.scroll.contentOffset.y += 10 }
        #expect(!translucent.copied, "a translucent ancestor blends the content with what is beneath")
    }
}
