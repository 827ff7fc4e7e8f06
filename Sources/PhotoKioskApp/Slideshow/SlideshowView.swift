import Imaging
import Graphics
import UI

/// The slideshow screen: ready-composed slides (see `SlideComposer`) giving way to each other by
/// a cross-fade, a slide or a cut, each still or moving slowly (Ken Burns, see `KenBurnsPath`).
/// The first slide fades in over whatever screen the person left, which stays underneath
/// untouched, so stopping the slideshow simply removes this view and they are back where they were.
///
/// Each frame draws at most two ready bitmaps: a still slide is a plain copy, a Ken Burns one a
/// single bilinear scale of its slide into the screen; nothing is decoded or composed while drawing.
public final class SlideshowView: View {
    /// The photo on screen (or coming in): the slide's first photo, by its path.
    public var photo: RawPath? { current?.slide.photos.first }
    /// Every photo on the slide: one, or a portrait pair.
    public var photos: [RawPath] { current?.slide.photos ?? [] }
    /// How far the transition to `photo` has gone, 0...1 (eased).
    public private(set) var progress: Double = 0
    /// The transition in progress (a cut shows at once).
    public private(set) var transitionStyle: KioskConfig.Transition = .crossfade
    private var current: ShownSlide?
    private var previous: ShownSlide?
    private var transition: Animation?
    /// The incoming moving slide scaled to the screen, during a cross-fade only: pixman blends a
    /// scaled source through an alpha mask only on its slow general path (about 8 times the cost
    /// of scaling, then blending a ready bitmap: see BENCHMARKS.md).
    private var fadeFrame: Bitmap?
    /// A playing clip's newest frame, drawn over the settled slide where its poster is.
    private var motionFrame: VideoFrame?

    /// A slide on screen and how far along its Ken Burns path it is.
    private final class ShownSlide {
        let slide: ComposedSlide
        let path: KenBurnsPath?
        var motion: Double = 0
        var animation: Animation?

        init(_ slide: ComposedSlide, path: KenBurnsPath?) {
            self.slide = slide
            self.path = path
        }

        func stop() {
            animation?.cancel()
            animation = nil
        }
    }

    public override init(frame: Rect) {
        super.init(frame: frame)
        backgroundColor = nil
    }

    /// True while the slideshow shows one slide fully (no transition in progress; a Ken Burns
    /// slide may still be moving).
    public var isSettled: Bool { current != nil && progress >= 1 }

    /// The part of the current slide on screen, in slide pixels (for tests and snapshots): the
    /// whole slide when it is still.
    public var currentViewport: Rect? {
        guard let current else { return nil }
        return current.path?.viewport(at: current.motion) ?? Rect(size: current.slide.bitmap.size)
    }

    /// Shows `slide` by `style` over `duration` seconds. `kenBurns`: the path to move along over
    /// `seconds` (its whole time on screen, fade out included); nil: the slide stays still.
    public func show(_ slide: ComposedSlide, style: KioskConfig.Transition, duration: Double,
              kenBurns: (path: KenBurnsPath, seconds: Double)?) {
        transition?.cancel()
        // A transition interrupted half-way continues from what is on screen: the newer slide.
        motionFrame = nil
        let outgoing = progress >= 0.5 ? current : (previous ?? current)
        for dropped in [previous, current] where dropped != nil && dropped !== outgoing { dropped?.stop() }
        previous = outgoing
        let shown = ShownSlide(slide, path: kenBurns?.path)
        current = shown
        transitionStyle = style
        progress = 0
        setNeedsDisplay()
        guard let window else {
            progress = 1
            previous?.stop()
            previous = nil
            return
        }
        if let kenBurns {
            shown.animation = window.animator.animate(duration: kenBurns.seconds, easing: .linear, update: { [weak self, weak shown] p in
                shown?.motion = p
                self?.setNeedsDisplay()
            })
        }
        transition = window.animator.animate(duration: style == .none ? 0 : duration, easing: .easeInOut, update: { [weak self] p in
            self?.progress = p
            self?.setNeedsDisplay()
        }, completion: { [weak self] finished in
            guard let self, finished else { return }
            self.previous?.stop()
            self.previous = nil
            self.fadeFrame = nil
            self.progress = 1
            self.onSettled?()
        })
    }

    /// A clip's frame shows over the slide's photo.
    public var isShowingMotion: Bool { motionFrame != nil }

    /// Shows a clip's frame over the settled slide's photo (nil: its poster again). Only that
    /// rectangle is repainted.
    func showMotionFrame(_ frame: VideoFrame?) {
        guard frame !== motionFrame else { return }
        motionFrame = frame
        if isVideoOnPlane && frame != nil {
            setNeedsVideoFrame()
        } else if let rect = motionRect {
            setNeedsDisplay(rect)
        }
    }

    public override var videoContent: (frame: VideoFrame, rect: Rect)? {
        // Drawn only on the settled slide, last: nothing of this view's own is painted over it.
        guard progress >= 1, let motionFrame, let motionRect else { return nil }
        return (motionFrame, motionRect)
    }

    /// Where the slide's photo is on screen: the clip's frame goes there.
    private var motionRect: Rect? {
        guard let current, current.slide.bitmap.width > 0, current.slide.bitmap.height > 0 else { return nil }
        let sx = bounds.width / Double(current.slide.bitmap.width), sy = bounds.height / Double(current.slide.bitmap.height)
        let content = current.slide.content
        return Rect(x: bounds.minX + content.minX * sx, y: bounds.minY + content.minY * sy,
                    width: content.width * sx, height: content.height * sy)
    }

    /// Runs when a transition ends (the app hides the screens beneath then).
    var onSettled: (() -> Void)?

    /// Forgets the slides (they were composed for another screen size).
    func reset() {
        motionFrame = nil
        transition?.cancel()
        current?.stop()
        previous?.stop()
        current = nil
        previous = nil
        fadeFrame = nil
        progress = 0
        setNeedsDisplay()
    }

    /// Stops every movement where it is (the screen is going dark: nothing should animate).
    func stopAnimating() {
        current?.stop()
        guard let transition, !transition.isFinished else { return }
        transition.cancel()
        progress = 1
        previous?.stop()
        previous = nil
        fadeFrame = nil
        setNeedsDisplay()
        onSettled?()
    }

    public override func draw(in context: DrawContext) {
        let bounds = self.bounds
        if transitionStyle == .slide, let previous, let current {
            let offsets = SlideTransition.offsets(progress: progress, width: bounds.width)
            draw(previous, in: Rect(x: bounds.minX + offsets.outgoing, y: bounds.minY, width: bounds.width, height: bounds.height), context)
            draw(current, in: Rect(x: bounds.minX + offsets.incoming, y: bounds.minY, width: bounds.width, height: bounds.height), context)
            return
        }
        if let previous { draw(previous, in: bounds, context) }
        guard let current, progress > 0 else { return }
        if progress >= 1 {
            draw(current, in: bounds, context)
            if let motionFrame, let motionRect { context.draw(motionFrame, in: motionRect, quality: .bilinear) }
            return
        }
        let fading = current.path == nil ? current.slide.bitmap : scaledForFade(current, context)
        context.canvas.withSavedState {
            context.canvas.multiplyAlpha(progress)
            context.draw(fading, in: bounds, quality: .bilinear)
        }
    }

    /// `shown` at its current viewport, scaled to the screen's pixels once for this frame.
    private func scaledForFade(_ shown: ShownSlide, _ context: DrawContext) -> Bitmap {
        let size = context.canvasRect(bounds).size
        let width = max(1, Int(size.width.rounded())), height = max(1, Int(size.height.rounded()))
        let frame = fadeFrame.flatMap { $0.width == width && $0.height == height ? $0 : nil } ?? Bitmap(width: width, height: height)
        fadeFrame = frame
        Canvas(target: frame).draw(shown.slide.bitmap, from: shown.path?.viewport(at: shown.motion), in: Rect(size: frame.size), quality: .bilinear)
        return frame
    }

    private func draw(_ shown: ShownSlide, in rect: Rect, _ context: DrawContext) {
        guard rect.intersects(bounds) else { return }
        let viewport = shown.path?.viewport(at: shown.motion)
        context.draw(shown.slide.bitmap, from: viewport, in: rect, quality: .bilinear)
    }

    /// Touches never reach the screens beneath (the app's session stops the slideshow first).
    public override func hitTest(_ point: Point) -> View? {
        self.point(inside: point) ? self : nil
    }
}
