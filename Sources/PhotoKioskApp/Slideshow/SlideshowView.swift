import Imaging
import Graphics
import UI

/// The slideshow screen: ready-composed slides (see `SlideComposer`) cross-fading into each
/// other. The first slide fades in over whatever screen the person left, which stays underneath
/// untouched, so stopping the slideshow simply removes this view and they are back where they were.
///
/// Each fade frame blends two full-screen bitmaps; nothing is scaled or decoded while drawing.
public final class SlideshowView: View {
    /// The photo on screen (or fading in), by its path.
    public private(set) var photo: RawPath?
    /// Opacity of `photo` over the previous slide (or over the screen beneath), 0...1.
    public private(set) var progress: Double = 0
    private var slide: Bitmap?
    private var previous: Bitmap?
    private var fade: Animation?

    public override init(frame: Rect) {
        super.init(frame: frame)
        backgroundColor = nil
    }

    /// True while the slideshow shows one photo fully (no fade in progress).
    public var isSettled: Bool { slide != nil && progress >= 1 }

    /// Shows `slide` (the composed photo `path`), fading over `duration` seconds.
    func show(_ slide: Bitmap, photo path: RawPath, fadeDuration duration: Double) {
        fade?.cancel()
        // A fade interrupted half-way continues from what is on screen: the newer slide.
        previous = progress >= 0.5 ? self.slide : (previous ?? self.slide)
        self.slide = slide
        photo = path
        progress = 0
        setNeedsDisplay()
        guard let window else {
            progress = 1
            previous = nil
            return
        }
        fade = window.animator.animate(duration: duration, easing: .easeInOut, update: { [weak self] p in
            self?.progress = p
            self?.setNeedsDisplay()
        }, completion: { [weak self] _ in
            guard let self else { return }
            self.previous = nil
            self.progress = 1
            self.onSettled?()
        })
    }

    /// Runs when a fade ends (the app hides the screens beneath then).
    var onSettled: (() -> Void)?

    /// Forgets the slides (they were composed for another screen size).
    func reset() {
        fade?.cancel()
        slide = nil
        previous = nil
        photo = nil
        progress = 0
        setNeedsDisplay()
    }

    /// Stops a fade where it is (the screen is going dark: nothing should animate).
    func stopAnimating() {
        guard let fade, !fade.isFinished else { return }
        fade.cancel()
        progress = 1
        previous = nil
        setNeedsDisplay()
        onSettled?()
    }

    public override func draw(in context: DrawContext) {
        let bounds = self.bounds
        if let previous {
            context.draw(previous, in: bounds)
        }
        guard let slide, progress > 0 else { return }
        context.canvas.withSavedState {
            context.canvas.multiplyAlpha(progress)
            context.draw(slide, in: bounds)
        }
    }

    /// Touches never reach the screens beneath (the app's session stops the slideshow first).
    public override func hitTest(_ point: Point) -> View? {
        self.point(inside: point) ? self : nil
    }
}
