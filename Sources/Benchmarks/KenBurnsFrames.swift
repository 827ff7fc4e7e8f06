import Graphics
import Imaging
import PhotoKioskApp
import UI

extension FrameBench {
    /// Per-frame cost of the slideshow's Ken Burns at 1920x1080: the real `SlideshowView` moving
    /// along a photo's whole path (a 10 s interval plus its 1 s fade, 60 frames a second), each
    /// frame one bilinear scale of the 1.15x slide into the screen, as the app composes it.
    func kenBurns(photo: Bitmap, seconds: Double = 11) -> Samples {
        let clock = ManualClock()
        let window = Window(size: Size(width: width, height: height), clock: clock)
        let view = SlideshowView(frame: window.bounds)
        window.addSubview(view)
        let screen = window.bounds.size
        let size = Size(width: (screen.width * KenBurnsPath.margin).rounded(), height: (screen.height * KenBurnsPath.margin).rounded())
        let (bitmap, content) = SlideComposer.compose(photo, size: size, fill: .blur, background: .black)
        let slide = ComposedSlide(bitmap: bitmap, photos: [RawPath("bench.jpg")], content: content)
        let path = KenBurnsPath(slide: size, screen: screen, focus: KenBurnsPath.focus(for: RawPath("bench.jpg"), seed: 1, in: content), content: content)
        view.show(slide, style: .none, duration: 0, kenBurns: (path, seconds))
        let canvas = Canvas(target: Bitmap(width: width, height: height))
        window.render(into: canvas)
        var samples = Samples()
        for _ in 0..<Int(seconds * 60) {
            clock.advance(by: 1.0 / 60)
            let start = Clocks.threadCPU()
            window.advance(to: clock.now)
            window.render(into: canvas)
            samples.add(Clocks.threadCPU() - start)
        }
        return samples
    }
}
