import Imaging
import Platform

extension KioskApp {
    /// Makes the information overlay when `[overlay]` turns a part on.
    func makeInfoOverlay() -> InfoOverlay? {
        guard !config.overlay.isOff else { return nil }
        return InfoOverlay(settings: config.overlay, app: self, placeTable: ResourceLocator.placeTable(), logger: logger)
    }

    /// The album shows photo `index` (opened, paged or reloaded).
    func overlayAlbumPageChanged(_ index: Int) {
        guard let infoOverlay, sessionDriver?.isSlideshowRunning != true else { return }
        infoOverlay.show(.album, photo: index < photos.count ? photos[index].path : nil)
    }

    /// The slideshow shows `photo`.
    func overlaySlideshowShows(_ photo: RawPath) {
        infoOverlay?.show(.slideshow, photo: photo)
    }

    /// The slideshow or the album closed: the overlay follows what is on screen now.
    func overlayScreenChanged() {
        guard let infoOverlay else { return }
        if let album, sessionDriver?.isSlideshowRunning != true {
            overlayAlbumPageChanged(album.centerPageIndex)
        } else if sessionDriver?.isSlideshowRunning != true {
            infoOverlay.hide()
        }
    }
}

extension KioskApp {
    /// The overlay has the details of the photo on screen (or there is no overlay): snapshots wait for it.
    public var isOverlaySettled: Bool { infoOverlay?.isSettled ?? true }
}
