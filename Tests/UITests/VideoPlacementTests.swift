import Graphics
import Testing
import TestSupport
@testable import UI

/// Where the window may put a playing clip on the display's video plane (Window+VideoPlane): the
/// frame drawn 1:1, cut by opaque views painted after it (a progress bar), cropped by clipping
/// views, and not at all when something translucent covers it, it fades, it is scaled, or two
/// frames play. Taken off the plane, the view redraws; a frame on it asks for no redraw.
@Suite struct VideoPlacementTests {
    final class ClipView: View {
        var frameShown: VideoFrame?
        var frameRect: Rect?
        override var videoContent: (frame: VideoFrame, rect: Rect)? {
            frameShown.map { ($0, frameRect ?? bounds) }
        }
    }

    /// A 100x80 window, a 100x50 clip view at y 15 showing a 100x50 frame.
    func scene() -> (Window, ClipView) {
        let window = Window(size: Size(width: 100, height: 80), clock: ManualClock())
        let clip = ClipView(frame: Rect(x: 0, y: 15, width: 100, height: 50))
        clip.frameShown = FlatVideoFrame.make(width: 100, height: 50)
        window.addSubview(clip)
        return (window, clip)
    }

    @Test func aFrameNothingCoversGoesWhole() throws {
        let (window, clip) = scene()
        let placement = try #require(window.videoPlacement())
        #expect(placement.view === clip)
        #expect(placement.destination == PixelRect(x: 0, y: 15, width: 100, height: 50))
        #expect(placement.source == PixelRect(x: 0, y: 0, width: 100, height: 50))
    }

    @Test func anOpaqueBarAlongItsBottomIsCutOut() throws {
        let (window, _) = scene()
        let bar = View(frame: Rect(x: 0, y: 61, width: 100, height: 4))
        bar.backgroundColor = .white
        window.addSubview(bar)
        let placement = try #require(window.videoPlacement())
        #expect(placement.destination == PixelRect(x: 0, y: 15, width: 100, height: 46))
        #expect(placement.source == PixelRect(x: 0, y: 0, width: 100, height: 46))
    }

    @Test func anOpaqueViewInTheMiddleOrATranslucentOneAnywhereKeepsItOff() {
        let (window, _) = scene()
        let badge = View(frame: Rect(x: 40, y: 30, width: 10, height: 10))
        badge.backgroundColor = .white
        window.addSubview(badge)
        #expect(window.videoPlacement() == nil, "two pieces left: no single plane rectangle")
        badge.frame = Rect(x: 0, y: 0, width: 20, height: 20)
        badge.backgroundColor = Color(red: 255, green: 255, blue: 255, alpha: 128)
        #expect(window.videoPlacement() == nil)
        badge.alpha = 0
        #expect(window.videoPlacement() != nil, "a view faded out paints nothing")
        badge.alpha = 1
        badge.isHidden = true
        #expect(window.videoPlacement() != nil)
    }

    @Test func aViewBeneathOrBesideItDoesNotMatter() throws {
        let window = Window(size: Size(width: 100, height: 80), clock: ManualClock())
        let below = View(frame: window.bounds)
        below.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 100)
        window.addSubview(below)
        let clip = ClipView(frame: Rect(x: 0, y: 15, width: 100, height: 50))
        clip.frameShown = FlatVideoFrame.make(width: 100, height: 50)
        window.addSubview(clip)
        let beside = View(frame: Rect(x: 0, y: 0, width: 100, height: 15))
        beside.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 100)
        window.addSubview(beside)
        #expect(try #require(window.videoPlacement()).destination == PixelRect(x: 0, y: 15, width: 100, height: 50))
    }

    @Test func aClippingParentCropsIt() throws {
        let window = Window(size: Size(width: 100, height: 80), clock: ManualClock())
        let pager = View(frame: Rect(x: 0, y: 0, width: 100, height: 80))
        pager.clipsToBounds = true
        pager.bounds.origin = Point(x: 30, y: 0)   // scrolled 30 px: the clip's left 30 columns are off
        let clip = ClipView(frame: Rect(x: 0, y: 15, width: 100, height: 50))
        clip.frameShown = FlatVideoFrame.make(width: 100, height: 50)
        pager.addSubview(clip)
        window.addSubview(pager)
        let placement = try #require(window.videoPlacement())
        #expect(placement.destination == PixelRect(x: 0, y: 15, width: 70, height: 50))
        #expect(placement.source == PixelRect(x: 30, y: 0, width: 70, height: 50))
    }

    @Test func aScaledFadingOrSecondFrameKeepsItOff() {
        let (window, clip) = scene()
        clip.frameShown = FlatVideoFrame.make(width: 50, height: 25)
        #expect(window.videoPlacement() == nil, "drawn at twice its size")
        clip.frameShown = FlatVideoFrame.make(width: 100, height: 50)
        clip.alpha = 0.5
        #expect(window.videoPlacement() == nil)
        clip.alpha = 1
        let other = ClipView(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        other.frameShown = FlatVideoFrame.make(width: 10, height: 10)
        window.addSubview(other)
        #expect(window.videoPlacement() == nil)
    }

    @Test func onThePlaneAFrameAsksForNoRedrawAndTakenOffTheViewRedraws() {
        let (window, clip) = scene()
        window.render(into: Canvas(target: Bitmap(width: 100, height: 80)))
        window.setVideoOnPlane(clip)
        #expect(clip.isVideoOnPlane && !window.needsDisplay)
        clip.setNeedsVideoFrame()
        #expect(window.needsDisplay && window.pendingDamage.isEmpty)
        window.render(into: Canvas(target: Bitmap(width: 100, height: 80)))
        #expect(!window.needsDisplay)
        window.setVideoOnPlane(nil)
        #expect(!clip.isVideoOnPlane)
        #expect(window.pendingDamage == [PixelRect(x: 0, y: 15, width: 100, height: 50)])
    }
}
