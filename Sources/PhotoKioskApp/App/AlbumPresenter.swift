import Graphics
import Imaging
import Logging
import Platform
import UI
import Widgets

/// The way between the grid and the full-screen album: opens the album over the grid at a photo,
/// keeps it on that photo through library changes and screen resizes, puts a photo larger than
/// twice the screen in tiles, and closes back to the grid at the last photo viewed.
final class AlbumPresenter {
    /// The full-screen album, while open.
    private(set) var album: PhotoAlbumView?
    /// The photo the album shows: a library change (a photo added before it, or removed) keeps
    /// that photo on screen, not whichever photo now has its index.
    private var albumPhotoID: PhotoID?
    /// Photos over twice the screen size show as tiles over their album page (Tiles/).
    private(set) var tiledPhoto: TiledPhotoAttachment?

    private let host: ScreenHost
    private var window: Window { host.window }
    private let grid: ThumbnailGridView
    private let photos: PhotoList
    private let thumbnails: ThumbnailService
    private let albumService: AlbumService
    private let cache: ImageCache
    private let pyramids: PyramidCache?
    /// Photos' full sizes, shared with the album's loads (which learn them on the workers).
    private let originalSizes: OriginalSizes
    private let mailbox: Mailbox
    private let logger: Logger
    /// The kiosk's one clip player (shared with the slideshow): the centre page's clip.
    let clips: ClipPlayback
    /// JPEGs looked into for a Motion Photo's video (shared with the slideshow).
    private let motionPhotos: MotionPhotoLookup

    /// A drag in the filmstrip moved a photo.
    var onMovePhoto: (_ from: Int, _ to: Int) -> Void = { _, _ in }
    /// The album shows photo `index` (opened or paged).
    var onPageChange: (Int) -> Void = { _ in }
    /// The album closed: the grid is on screen again.
    var onClose: () -> Void = {}

    init(host: ScreenHost, grid: ThumbnailGridView, photos: PhotoList, thumbnails: ThumbnailService,
         albumService: AlbumService, cache: ImageCache, pyramids: PyramidCache?, originalSizes: OriginalSizes,
         clips: ClipPlayback, motionPhotos: MotionPhotoLookup, mailbox: Mailbox, logger: Logger) {
        self.host = host
        self.grid = grid
        self.photos = photos
        self.thumbnails = thumbnails
        self.albumService = albumService
        self.cache = cache
        self.pyramids = pyramids
        self.originalSizes = originalSizes
        self.mailbox = mailbox
        self.logger = logger
        self.clips = clips
        self.motionPhotos = motionPhotos
    }

    /// Opens the album at photo `index`: its grid thumbnail at once, then the screen-sized decode
    /// (see AlbumService). The "‹ Grid" button, a swipe down or Escape go back.
    func openPhoto(at index: Int) {
        guard index >= 0, index < photos.count else { return }
        // Says which photo a tap reached: the e2e calibration and rotation stages check it.
        logger.info("opened photo \(index + 1) of \(photos.count): \(photos[index].path.description)")
        if let album {
            album.setCenterPageIndex(index, animated: false)
            return
        }
        let view = PhotoAlbumView(frame: window.bounds)
        let metrics = chromeMetrics
        view.metrics = metrics
        view.font = grid.font.flatMap { try? Font(path: $0.path, pixelSize: Int(metrics.pixels(18))) }
        view.onClose = { [weak self] in self?.closePhoto() }
        // The filmstrip shows the grid's thumbnails (already decoded) and reorders the same list.
        view.filmstrip.requestedThumbnailEdge = grid.thumbnailEdge
        view.filmstrip.provider = thumbnails
        view.onMovePhoto = { [weak self] from, to in self?.onMovePhoto(from, to) }
        view.onPageSettled = { [weak self] index in self?.pageSettled(at: index) }
        view.onTapPage = { [weak self] index in self?.pageTapped(at: index) }
        view.pageHasMotion = { [weak self] index in self?.hasMotion(at: index) ?? false }
        view.pageTakesTaps = { [weak self] index in
            guard let self, index < self.photos.count else { return false }
            return self.photos[index].file.type.isClip
        }
        view.onHoldPage = { [weak self] index, held in self?.pageHeld(at: index, held) }
        view.onPageChange = { [weak self] index in
            guard let self else { return }
            self.albumPhotoID = index < self.photos.count ? self.photos.photos[index].id : nil
            // Swiped away from a playing clip: it stops at once, as on a phone.
            if let playing = self.clips.item, playing.id != self.albumPhotoID { self.clips.stop() }
            self.updateTiledPhoto()
            self.onPageChange(index)
        }
        albumService.thumbnailEdge = grid.thumbnailEdge
        albumService.screenSize = window.bounds.size
        window.addSubview(view)
        // The album covers the grid: not drawing it under every album frame halves the work.
        grid.isHidden = true
        // Nor do its thumbnails stay pinned (a screenful is 10-15 MB): they become evictable
        // like cells scrolled away; closing the album asks for them again.
        thumbnails.updateWantedThumbnails([:], edge: grid.thumbnailEdge)
        album = view
        view.show(albumService, at: index)
        window.firstResponder = view
    }

    /// Back to the grid, scrolled to the last photo viewed.
    func closePhoto() {
        guard let view = album else { return }
        clips.stop()
        tiledPhoto?.detach()
        tiledPhoto = nil
        albumService.stopAll()
        view.removeFromSuperview()
        album = nil
        grid.isHidden = false
        // The filmstrip may have reordered the photos, and it had the thumbnail service's
        // attention: the grid shows the order now and asks for its thumbnails again.
        grid.reloadData()
        grid.scrollToItem(view.centerPageIndex, animated: false)
        onClose()
    }

    /// The list changed: the album stays on the photo it showed.
    func libraryDidChange() {
        // A playing clip whose file went or changed stops; one still there plays on.
        if let playing = clips.item, photos.index(of: playing.id).map({ photos[$0].path }) != playing.itemPath { clips.stop() }
        album?.reloadData(centeredAt: albumPhotoID.flatMap { photos.index(of: $0) })
    }

    // MARK: Clips

    /// The album came to rest on photo `index`: a clip there plays (muted, looping) until the
    /// album leaves it.
    private func pageSettled(at index: Int) {
        guard index < photos.count, let album else { return }
        let photo = photos[index]
        if motionPhotos.hasVideo(photo) == nil {
            // Once it is known to carry a video, its page takes a hold.
            let id = photo.id
            motionPhotos.look(into: photo) { [weak self] found in
                guard found, let self, let index = self.photos.index(of: id) else { return }
                self.album?.motionDidChange(at: index)
            }
        }
        guard photo.file.type.isClip else { return }
        let item = ClipPlayback.Item(id: photo.id, path: photo.path)
        guard item != clips.item else { return }
        // While it plays, the pages around it are not loaded ahead and the cache lets go of what
        // no page holds, before the decoder starts: a 1080p decoder wants tens of MB (see docs).
        album.preloadsNeighbours = false
        cache.removeUnpinned()
        album.releaseNeighbourPages()
        clips.play(item, fitting: album.bounds.size, withSound: true) { [weak self] frame in
            guard let self else { return }
            if frame == nil { self.album?.preloadsNeighbours = true }
            self.album?.isPlayingClip = frame != nil
            guard let page = self.page(showing: item) else { return }
            page.showMotionFrame(frame?.picture)
            page.motionProgress = frame.map { $0.progress ?? 0 }
        }
    }

    /// The album is on screen again (a slideshow over it stopped): its centre clip plays again.
    func albumBecameVisible() {
        guard let album, album.photoCount > 0 else { return }
        pageSettled(at: album.centerPageIndex)
    }

    // MARK: Live Photos and Motion Photos

    /// Whether a hold on photo `index` plays motion: a Live Photo's .mov, a Motion Photo's video.
    private func hasMotion(at index: Int) -> Bool {
        guard index < photos.count else { return false }
        return photos[index].motion != nil || motionPhotos.hasVideo(photos[index]) == true
    }

    /// A finger held on a Live Photo or Motion Photo plays its motion until it lifts, as on a
    /// phone; the photo shows again after.
    private func pageHeld(at index: Int, _ held: Bool) {
        guard index < photos.count, let album else { return }
        let photo = photos[index]
        if !held {
            if clips.item?.id == photo.id { clips.stop() }
            return
        }
        let item = ClipPlayback.Item(motionOf: photo)
        logger.info("motion of \(photo.path.description) plays while held")
        clips.play(item, fitting: album.bounds.size, withSound: true) { [weak self] frame in
            guard let page = self?.page(showing: item) else { return }
            page.showMotionFrame(frame?.picture)
        }
    }

    /// A tap on a playing clip pauses it; another goes on.
    private func pageTapped(at index: Int) {
        guard index < photos.count, clips.item?.id == photos[index].id else { return }
        clips.togglePause()
    }

    /// The album's page for `item`, while the album shows that photo.
    private func page(showing item: ClipPlayback.Item) -> PhotoPageView? {
        guard let index = photos.index(of: item.id) else { return nil }
        return album?.page(at: index)
    }

    /// Photo `index`'s screen image arrived.
    /// A load for photo `index` arrived (`content`: its bitmap, or its failure).
    func photoDidChange(at index: Int, to content: PhotoContent) {
        album?.photoDidChange(at: index, to: content)
        guard index == album?.centerPageIndex else { return }
        if let tiledPhoto {
            // The page's screen image arrived under a tiled photo: its fit tiles are not needed.
            tiledPhoto.content.view.refreshTiles()
        } else if content.originalSize != nil {
            // The first decode of the centre photo brought its size: it may want tiles.
            updateTiledPhoto()
        }
    }

    func screenResized(to size: Size) {
        album?.frame = Rect(size: size)
        album?.metrics = chromeMetrics
        albumService.screenSize = size
        updateTiledPhoto()
    }

    /// How big the album's controls are drawn on this screen: from its millimetres as the screen
    /// reports them (EDID), else as the touch panel over it does (libinput), else its height
    /// (ChromeMetrics).
    var chromeMetrics: ChromeMetrics {
        ChromeMetrics(screen: window.bounds.size, millimetres: host.display.physicalSize ?? host.touchPanelMillimetres)
    }

    /// Puts the centre photo in tiled mode when it is more than twice the screen (pyramid built
    /// in the background, cached on disk); any other page goes back to the album's own view.
    private func updateTiledPhoto() {
        tiledPhoto?.detach()
        tiledPhoto = nil
        guard let album else { return }
        album.layoutIfNeeded()   // the page must have its final size before the tiles cover it
        guard let page = album.centerPage, album.centerPageIndex < photos.count,
              !photos[album.centerPageIndex].file.type.isClip else { return }   // a clip plays whole, never in tiles
        let path = photos[album.centerPageIndex].path
        // Known once a decode of this photo read its header (on a worker); until then the page
        // shows its bitmaps whole, and `photoDidChange` comes back here when the size arrives.
        guard let size = originalSizes.value(for: path),
              TiledPhotoContent.wantsTiles(imageSize: size, screenSize: window.bounds.size) else { return }
        do {
            let content = try TiledPhotoContent(path: path, cache: cache, pyramids: pyramids, logger: logger,
                                                deliver: { [mailbox] block in mailbox.post(block) })
            tiledPhoto = TiledPhotoAttachment(content: content, over: page,
                                              disabling: [page.pinchGestureRecognizer, page.doubleTapRecognizer])
        } catch {
            logger.warning("tiles: \(error); showing the photo whole")
        }
    }
}
