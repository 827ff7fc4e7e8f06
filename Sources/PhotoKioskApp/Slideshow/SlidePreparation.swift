import Graphics
import Imaging
import Logging

/// Prepares the slideshow's slides ahead of their turn: decodes each photo at slide size through
/// the app's cache and loader, and composes it (alone, or with the portrait it pairs with) on the
/// composer's threads, so a photo change never waits for a decode. Holds the composed slides until
/// told which are still wanted.
final class SlidePreparation {
    /// A slide was composed and is ready to show (called with its first photo).
    var onReady: (RawPath) -> Void = { _ in }
    /// A slide's photo cannot be decoded (logged once per photo here).
    var onBroken: (RawPath) -> Void = { _ in }

    private let loader: ImageLoader
    private let cache: ImageCache
    private let composer: BackgroundSlideComposer
    /// Set anew when the settings change (`SlideshowPresenter.reconfigure`).
    var settings: KioskConfig.Slideshow
    private let logger: Logger
    private let now: () -> Double
    /// The screen's size now (it changes when another display is connected).
    private let screenSize: () -> Size

    /// Composed slides by their first photo's path: the one on screen and the next one (at most a few).
    private var slides: [RawPath: ComposedSlide] = [:]
    /// Decodes in flight: a slide's photo, or the photo it may pair with.
    private var loads: [LoadSlot: LoadTicket] = [:]
    private struct LoadSlot: Hashable {
        let slide: RawPath
        let isPartner: Bool
    }
    private var composing: Set<RawPath> = []
    private var reportedBroken: Set<RawPath> = []

    init(loader: ImageLoader, cache: ImageCache, composer: BackgroundSlideComposer, settings: KioskConfig.Slideshow, logger: Logger,
         now: @escaping () -> Double, screenSize: @escaping () -> Size) {
        self.loader = loader
        self.cache = cache
        self.composer = composer
        self.settings = settings
        self.logger = logger
        self.now = now
        self.screenSize = screenSize
    }

    /// Photos whose slide is composed and ready to show.
    var preparedPhotos: Set<RawPath> { Set(slides.keys) }
    /// True while a slide is being decoded or composed.
    var isPreparing: Bool { !loads.isEmpty || !composing.isEmpty }

    /// The composed slide that begins with `photo`, if it is ready.
    func slide(for photo: RawPath) -> ComposedSlide? { slides[photo] }

    /// Drops the slide that begins with `photo` (a pair whose second photo is no longer next).
    func forget(_ photo: RawPath) { slides[photo] = nil }

    /// Drops every composed slide but those of `photo` and `next`.
    func keepOnly(_ photo: RawPath, _ next: RawPath?) {
        slides = slides.filter { $0.key == photo || $0.key == next }
    }

    /// Drops every slide, composed or in preparation (the slideshow stopped, the screen resized).
    func cancelAll() {
        for (_, ticket) in loads { loader.cancel(ticket) }
        loads = [:]
        slides = [:]
        composer.cancelAll()
        composing = []
    }

    /// The size slides are composed at: the screen's, or larger for Ken Burns to move within.
    private var slideSize: Size {
        let screen = screenSize()
        guard settings.kenBurns else { return screen }
        return Size(width: (screen.width * KenBurnsPath.margin).rounded(), height: (screen.height * KenBurnsPath.margin).rounded())
    }

    /// Decodes `photo` at slide size and composes its slide: with `partner` (the photo after it)
    /// when portrait pairing is on and both are narrow for the screen.
    func prepare(_ photo: RawPath, partner: RawPath?) {
        guard slides[photo] == nil, loads[LoadSlot(slide: photo, isPartner: false)] == nil,
              loads[LoadSlot(slide: photo, isPartner: true)] == nil, !composing.contains(photo) else { return }
        let screen = screenSize()
        decode(photo, for: LoadSlot(slide: photo, isPartner: false)) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let first):
                guard self.settings.pairPortraits, let partner, partner != photo,
                      PortraitPairing.isPairable(first.size, screen: screen) else {
                    return self.compose([photo], [first])
                }
                self.decode(partner, for: LoadSlot(slide: photo, isPartner: true)) { [weak self] result in
                    // A partner that cannot be read shows nothing here: its own turn reports it.
                    if case .success(let second) = result, PortraitPairing.isPairable(second.size, screen: screen) {
                        self?.compose([photo, partner], [first, second])
                    } else {
                        self?.compose([photo], [first])
                    }
                }
            case .failure(let error):
                // Once per photo: it comes round again every cycle.
                if self.reportedBroken.insert(photo).inserted {
                    self.logger.warning("slideshow: cannot show \(photo): \(error)")
                }
                self.onBroken(photo)
            }
        }
    }

    /// `photo` decoded to fit the slide, from the cache or the loader.
    private func decode(_ photo: RawPath, for slot: LoadSlot, then use: @escaping (Result<Bitmap, any Error>) -> Void) {
        let size = slideSize
        let key = ImageKey(path: photo, size: .screen(width: Int(size.width), height: Int(size.height)))
        logger.debug("slideshow: preparing \(key)")
        if let cached = cache.bitmap(for: key) { return use(.success(cached)) }
        loads[slot] = loader.request(key, distance: 0) { [weak self] _, result in
            self?.loads[slot] = nil
            use(result.map(\.bitmap))
        }
    }

    /// Composes the slide of `photos` (one, or a pair) on one of the composer's threads.
    private func compose(_ photos: [RawPath], _ bitmaps: [Bitmap]) {
        guard let photo = photos.first else { return }
        let started = now()
        let size = slideSize, fill = settings.portraitFill, background = settings.background
        composing.insert(photo)
        composer.compose({
            let (bitmap, content) = bitmaps.count > 1
                ? SlideComposer.composePair(bitmaps[0], bitmaps[1], size: size, fill: fill, background: background)
                : SlideComposer.compose(bitmaps[0], size: size, fill: fill, background: background)
            return ComposedSlide(bitmap: bitmap, photos: photos, content: content)
        }) { [weak self] slide in
            guard let self else { return }
            self.composing.remove(photo)
            self.slides[photo] = slide
            self.logger.debug("slideshow: \(photos) composed in \(Int((self.now() - started) * 1000)) ms")
            self.onReady(photo)
        }
    }
}
