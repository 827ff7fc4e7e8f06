import Testing
import Graphics
@testable import UI

@Suite struct ViewTests {
    /// root(0,0 400x400) ⊃ a(50,50 200x200, bounds origin (10,20)) ⊃ b(30,40 50x50)
    func makeTree() -> (root: View, a: View, b: View) {
        let root = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let a = View(frame: Rect(x: 50, y: 50, width: 200, height: 200))
        a.bounds.origin = Point(x: 10, y: 20)
        let b = View(frame: Rect(x: 30, y: 40, width: 50, height: 50))
        root.addSubview(a)
        a.addSubview(b)
        return (root, a, b)
    }

    @Test func convertAccountsForBoundsOrigin() {
        let (root, a, b) = makeTree()
        // b's origin: a's (30,40) shows at 50 + 30 − 10 = 70, 50 + 40 − 20 = 70.
        #expect(b.convert(Point.zero, to: root) == Point(x: 70, y: 70))
        #expect(b.convert(Point(x: 70, y: 70), from: root) == .zero)
        #expect(b.convert(Point(x: 5, y: 5), to: a) == Point(x: 35, y: 45))
        #expect(root.convert(Rect(x: 70, y: 70, width: 50, height: 50), to: b) == Rect(x: 0, y: 0, width: 50, height: 50))
    }

    @Test func convertAccountsForScale() {
        let (root, a, b) = makeTree()
        b.transform = ViewTransform(scale: 2)
        #expect(b.frame.size == Size(width: 100, height: 100))
        #expect(b.convert(Point(x: 10, y: 10), to: root) == Point(x: 90, y: 90))
        #expect(close(b.convert(Point(x: 90, y: 90), from: nil), Point(x: 10, y: 10)))
        #expect(b.scaleInWindow == 2)
        _ = a
    }

    @Test func hitTestFindsTheDeepestInteractiveView() {
        let (root, a, b) = makeTree()
        #expect(root.hitTest(Point(x: 75, y: 75)) === b)
        #expect(root.hitTest(Point(x: 60, y: 60)) === a)
        #expect(root.hitTest(Point(x: 10, y: 10)) === root)
        #expect(root.hitTest(Point(x: 500, y: 10)) == nil)
        b.isUserInteractionEnabled = false
        #expect(root.hitTest(Point(x: 75, y: 75)) === a)
        b.isUserInteractionEnabled = true
        b.isHidden = true
        #expect(root.hitTest(Point(x: 75, y: 75)) === a)
        b.isHidden = false
        b.alpha = 0
        #expect(root.hitTest(Point(x: 75, y: 75)) === a)
    }

    @Test func laterSubviewsAreOnTop() {
        let (root, _, _) = makeTree()
        let top = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        root.addSubview(top)
        #expect(root.hitTest(Point(x: 75, y: 75)) === top)
        root.subviews[0].removeFromSuperview()
        #expect(root.subviews.count == 1)
    }

    @Test func viewWithTagSearchesTheSubtree() {
        let (root, a, b) = makeTree()
        b.tag = 7
        a.tag = 3
        #expect(root.viewWithTag(7) === b)
        #expect(root.viewWithTag(3) === a)
        #expect(root.viewWithTag(9) == nil)
    }

    @Test func boundsChangesTriggerLayout() {
        final class Counting: View {
            var layouts = 0
            override func layoutSubviews() { layouts += 1 }
        }
        let v = Counting(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        v.layoutIfNeeded()
        #expect(v.layouts == 1)
        v.layoutIfNeeded()
        #expect(v.layouts == 1)
        v.bounds.origin.y = 30
        v.layoutIfNeeded()
        #expect(v.layouts == 2)
        v.frame = Rect(x: 0, y: 0, width: 120, height: 100)
        v.position = Point(x: 5, y: 5)  // moving does not re-layout
        v.layoutIfNeeded()
        #expect(v.layouts == 3)
    }

    @Test func deepLayoutRequestsReachTheWindow() {
        final class Counting: View {
            var layouts = 0
            override func layoutSubviews() { layouts += 1 }
        }
        let window = Window(size: Size(width: 100, height: 100), clock: ManualClock())
        let a = Counting(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        let b = Counting(frame: Rect(x: 0, y: 0, width: 20, height: 20))
        let c = Counting(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(a)
        a.addSubview(b)
        b.addSubview(c)
        window.layoutIfNeeded()
        #expect([a.layouts, b.layouts, c.layouts] == [1, 1, 1])
        window.render(into: Canvas(target: Bitmap(width: 100, height: 100)))
        #expect(!window.needsDisplay)
        #expect(!window.subtreeNeedsLayout)
        c.bounds.origin = Point(x: 1, y: 0)
        #expect(window.subtreeNeedsLayout && a.descendantNeedsLayout && !a.needsLayout)
        window.layoutIfNeeded()
        #expect([a.layouts, b.layouts, c.layouts] == [1, 1, 2])
    }

    @Test func keysGoToTheFirstResponderThenUp() {
        final class KeyView: View {
            var keys: [KeyEvent] = []
            var accepts: Set<KeyEvent> = []
            override func handleKey(_ key: KeyEvent) -> Bool {
                keys.append(key)
                return accepts.contains(key)
            }
        }
        let window = Window(size: Size(width: 100, height: 100), clock: ManualClock())
        let outer = KeyView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let inner = KeyView(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        window.addSubview(outer)
        outer.addSubview(inner)
        outer.accepts = [.left]
        #expect(inner.becomeFirstResponder())
        #expect(inner.isFirstResponder)
        #expect(window.dispatch(key: .left))
        #expect(inner.keys == [.left] && outer.keys == [.left])
        #expect(!window.dispatch(key: .enter))
        inner.removeFromSuperview()
        #expect(window.firstResponder == nil)
    }
}
