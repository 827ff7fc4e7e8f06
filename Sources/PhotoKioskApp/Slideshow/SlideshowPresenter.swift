import Basics
import Graphics
import Imaging
import Logging
import UI

/// The running slideshow on screen: its view above the app's screens, showing the slide of the
/// session's current photo once it is prepared (the next one is prepared meanwhile), and the
/// screens beneath hidden while a slide covers them.
final class SlideshowPresenter {
    private(set) var view: SlideshowView?
    /// Photo changes that had to wait for a decode because the photo was not prepared ahead.
    private(set) var changesThatWaited = 0
    let preparation: SlidePreparation

    private unowned let app: KioskApp
    private var settings: KioskConfig.Slideshow
    /// Picks each photo's Ken Burns point of interest (the same seed as the shuffle).
    private let seed: UInt64
    private let logger: Logger
    private var hiddenBeneath: [View] = []

    init(app: KioskApp, settings: KioskConfig.Slideshow, seed: UInt64, logger: Logger) {
        self.app = app
        self.settings = settings
        self.seed = seed
        self.logger = logger
        preparation = SlidePreparation(loader: app.loader, cache: app.cache, composer: BackgroundSlideComposer(loop: app.host.loop),
                                       settings: settings, logger: logger,
                                       now: { [unowned app] in app.window.scheduler.now },
                                       screenSize: { [unowned app] in app.window.bounds.size })
    }

    /// New settings: slides prepared for the old ones (paired, or not; Ken Burns or not) are
    /// dropped and the next photo is prepared and shown by the new ones.
    func reconfigure(_ newSettings: KioskConfig.Slideshow) {
        guard newSettings != settings else { return }
        let recompose = newSettings.pairPortraits != settings.pairPortraits || newSettings.kenBurns != settings.kenBurns
        settings = newSettings
        preparation.settings = newSettings
        if recompose, let photo = view?.photo {
            preparation.keepOnly(photo, nil)
        }
    }

    /// True when `photo` shows fully.
    func isSettled(showing photo: RawPath) -> Bool {
        guard let view else { return false }
        return view.photos.contains(photo) && view.isSettled
    }

    /// Shows the session's current photo: its slide when prepared, otherwise it is prepared and
    /// shown when `preparation.onReady` says so. A pair moves the session's order past its second
    /// photo. The next slide is prepared either way. False when there is no photo to show.
    func showCurrent(of session: inout KioskSession) -> Bool {
        guard let photo = session.slideshow.sequencer.current else { return false }
        let view = self.view ?? makeView()
        var (next, afterNext) = session.slideshow.upcoming()
        if view.photos.count > 1, view.photos.last == photo {
            // The second photo of the pair on screen: it is shown already.
        } else if let slide = preparation.slide(for: photo), session.slideshow.canStillShow(slide) {
            let first = view.photo == nil
            if slide.photos.count > 1 {
                session.showPaired(with: slide.photos[1])   // the order moves on past the pair
                (next, afterNext) = session.slideshow.upcoming()
            }
            if let playing = app.clips.item, !slide.photos.contains(playing.itemPath) { app.clips.stop() }
            view.show(slide, style: first ? .crossfade : settings.transition, duration: settings.transitionDuration,
                      kenBurns: kenBurns(for: slide))
            app.overlaySlideshowShows(photo)
            // On the monotonic clock: the pace can be checked while the wall clock jumps (e2e blank stage).
            logger.debug("slideshow: shows \(photo) at monotonic \(decimalText(app.window.scheduler.now, places: 2)) s")
            preparation.keepOnly(photo, next)
        } else {
            preparation.forget(photo)   // a pair whose second photo is no longer next (the library changed)
            if view.photo != nil { changesThatWaited += 1 }
            preparation.prepare(photo, partner: next)
        }
        if let next { preparation.prepare(next, partner: afterNext) }
        return true
    }

    /// Removes the slideshow: slides in preparation are dropped, the screens beneath come back
    /// unchanged.
    func stop() {
        if let playing = app.clips.item, view?.photos.contains(playing.itemPath) == true { app.clips.stop() }
        preparation.cancelAll()
        for view in hiddenBeneath { view.isHidden = false }
        hiddenBeneath = []
        view?.removeFromSuperview()
        view = nil
        app.albumPresenter.albumBecameVisible()
    }

    /// The slide on screen is a clip, now fully in: it plays muted, from its start, for its
    /// length (looping up to the interval when shorter) but at most `clipSeconds`; then the
    /// slideshow moves on. A clip that cannot play stays its poster for the interval.
    private func playSettledClip() {
        guard settings.clipSeconds > 0, let view, view.photos.count == 1, let path = view.photo,
              let photo = app.photos.photo(at: path), photo.file.type.isClip else { return }
        let item = ClipPlayback.Item(id: photo.id, path: path)
        let box = app.window.bounds.size
        // Until its length is known (opening takes a while on a small board), the longest it may get.
        onClipLength?(settings.transitionDuration + max(settings.interval, settings.clipSeconds))
        var timed = false
        app.clips.play(item, fitting: box) { [weak self, weak view] frame in
            guard let self, let view, view.photo == path else { return }
            view.showMotionFrame(frame?.picture)
            if let frame, !timed, let length = frame.duration {
                timed = true
                self.onClipLength?(self.slideSeconds(forClipOf: length))
            } else if frame == nil, !timed {
                self.onClipLength?(nil)   // it could not play: a still for the interval
            }
        }
    }

    /// The slide on screen is a Live Photo or a Motion Photo, now fully in: its motion plays once,
    /// muted, over the photo (as Apple's Photos plays one as it comes up), then the still stays for
    /// the rest of the slide's time. Not with Ken Burns, whose zoom runs over the still.
    private func playSettledMotion() {
        guard settings.playsMotion, !settings.kenBurns, let view, view.photos.count == 1, let path = view.photo,
              let photo = app.photos.photo(at: path), !photo.file.type.isClip else { return }
        app.motionPhotos.look(into: photo) { [weak self, weak view] isMotionPhoto in
            // A Live Photo's motion is its own file; a Motion Photo's was found inside the JPEG.
            guard photo.motion != nil || isMotionPhoto, let self, let view, view.photo == path, view.isSettled else { return }
            self.logger.info("slideshow: the motion of \(path.description) plays once")
            self.app.clips.play(ClipPlayback.Item(motionOf: photo), fitting: self.app.window.bounds.size, once: true) { [weak view] frame in
                guard let view, view.photo == path else { return }
                view.showMotionFrame(frame?.picture)
            }
        }
    }

    /// How long a clip slide stays from when it began to come in: the transition, then the clip
    /// once (a short one loops until the interval is up), at most `clipSeconds` of it.
    func slideSeconds(forClipOf length: Duration) -> Double {
        let seconds = length / .seconds(1)
        let playing = seconds < settings.interval ? settings.interval : min(seconds, settings.clipSeconds)
        return settings.transitionDuration + playing
    }

    /// A clip slide's time on screen from when it began to come in (`slideSeconds(forClipOf:)`);
    /// nil: the interval, as for a photo.
    var onClipLength: ((Double?) -> Void)?

    /// The display changed size (another screen was connected): the view fills it and its slides
    /// are dropped to be composed again. False when no slideshow shows.
    func resize() -> Bool {
        guard let view else { return false }
        view.frame = app.window.bounds
        preparation.cancelAll()
        view.reset()
        return true
    }

    /// The slide's Ken Burns path over its whole time on screen (fade in to fade out); nil when
    /// the effect is off.
    private func kenBurns(for slide: ComposedSlide) -> (path: KenBurnsPath, seconds: Double)? {
        // A clip plays still in its place (its frames would have to follow the pan).
        guard settings.kenBurns, let photo = slide.photos.first, app.photos.photo(at: photo)?.file.type.isClip != true else { return nil }
        let focus = KenBurnsPath.focus(for: photo, seed: seed, in: slide.content)
        let path = KenBurnsPath(slide: slide.bitmap.size, screen: app.window.bounds.size, focus: focus, content: slide.content)
        return (path, settings.interval + settings.transitionDuration)
    }

    private func makeView() -> SlideshowView {
        let view = SlideshowView(frame: app.window.bounds)
        view.onSettled = { [weak self] in
            self?.hideScreensBeneath()
            self?.playSettledClip()
            self?.playSettledMotion()
        }
        app.clips.stop()   // the album's clip, about to be covered
        app.window.addSubview(view)
        self.view = view
        logger.info("slideshow started")
        return view
    }

    /// Once a slide covers the screen, the screens beneath are hidden so their updates (a
    /// thumbnail arriving) cost nothing; they come back unchanged when the slideshow stops.
    /// Views above it (the information overlay) stay.
    private func hideScreensBeneath() {
        guard let view else { return }
        for other in app.window.subviews.prefix(while: { $0 !== view }) where !other.isHidden {
            other.isHidden = true
            hiddenBeneath.append(other)
        }
    }
}
