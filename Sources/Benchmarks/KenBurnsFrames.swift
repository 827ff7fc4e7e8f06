import Graphics
import Imaging
import PhotoKioskApp
import SystemAccess
import UI

extension FrameBench {
    /// Per-frame cost of the slideshow's Ken Burns at 1920x1080: the real `SlideshowView` moving
    /// along a photo's whole path (a 10 s interval plus its 1 s fade, 60 frames a second), each
    /// frame one bilinear scale of the 1.15x slide into the screen, as the app composes it.
    /// `crossfade`: instead, only the frames of a 1 s cross-fade from one moving slide to the next
    /// (two scales and a blend: the slideshow's most expensive frames).
    func kenBurns(photo: Bitmap, crossfade: Bool = false, seconds: Double = 11) -> Samples {
        let clock = ManualClock()
        let window = Window(size: Size(width: width, height: height), clock: clock)
        let view = SlideshowView(frame: window.bounds)
        window.addSubview(view)
        let screen = window.bounds.size
        let size = Size(width: (screen.width * KenBurnsPath.margin).rounded(), height: (screen.height * KenBurnsPath.margin).rounded())
        let (bitmap, content) = SlideComposer.compose(photo, size: size, fill: .blur, background: .black)
        func show(_ name: String, style: KioskConfig.Transition, fade: Double) {
            let slide = ComposedSlide(bitmap: bitmap, photos: [RawPath(name)], content: content)
            let focus = KenBurnsPath.focus(for: RawPath(name), seed: 1, in: content)
            view.show(slide, style: style, duration: fade, kenBurns: (KenBurnsPath(slide: size, screen: screen, focus: focus, content: content), seconds))
        }
        show("bench-1.jpg", style: .none, fade: 0)
        let canvas = Canvas(target: Bitmap(width: width, height: height))
        window.render(into: canvas)
        var frames = Int(seconds * 60)
        if crossfade {
            clock.advance(by: seconds - 1)
            window.advance(to: clock.now)
            show("bench-2.jpg", style: .crossfade, fade: 1)
            frames = 60
        }
        var samples = Samples()
        for _ in 0..<frames {
            clock.advance(by: 1.0 / 60)
            let start = SystemClock.threadCPUSeconds()
            window.advance(to: clock.now)
            window.render(into: canvas)
            samples.add(SystemClock.threadCPUSeconds() - start)
        }
        return samples
    }
}
