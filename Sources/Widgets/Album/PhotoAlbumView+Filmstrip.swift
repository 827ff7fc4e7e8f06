import Graphics
import UI

// The album's filmstrip: a ThumbnailStripView along the bottom that follows the current page
// (its thumbnail ringed and scrolled to the middle), opens a photo on tap, and reorders by
// drag with the seed's edge autoscroll (ThumbnailStripView). The owner sets
// `filmstrip.provider` (the grid's thumbnails) and `onMovePhoto`.
extension PhotoAlbumView {
    /// The strip's height in points: 64-point thumbnails with the strip's 10-point spacing
    /// (ScrollViewSuite's strip is 160 px; this one sits over the photo, so it is smaller).
    static let filmstripPoints = 74.0
    /// Never more than this fraction of the album's height.
    static let filmstripMaximumFraction = 0.2

    func configureFilmstrip() {
        filmstrip.backgroundColor = Color(rgb: 0x111114)
        filmstrip.showsHorizontalScrollIndicator = false
        filmstrip.centersItems = true
        filmstrip.onSelect = { [unowned self] index in
            self.setCenterPageIndex(index, animated: abs(index - self.centerPageIndex) == 1)
        }
        filmstrip.onMove = { [unowned self] from, to in self.filmstripMoved(from: from, to: to) }
    }

    /// The strip's height for the current size and metrics (0 with fewer than two photos).
    var filmstripHeight: Double {
        guard photoCount > 1 else { return 0 }
        return min(metrics.pixels(Self.filmstripPoints), (bounds.height * Self.filmstripMaximumFraction).rounded())
    }

    /// True while a finger is on the strip or it still moves (the chrome stays meanwhile).
    var isFilmstripInUse: Bool {
        filmstrip.isTracking || filmstrip.isDragging || filmstrip.isDecelerating || filmstrip.isReordering
    }

    func reloadFilmstrip() {
        filmstrip.spacing = metrics.pixels(10)
        // Thumbnails just past either end are built ahead, not a viewport's worth each side:
        // the album's memory goes to its photos (a 1080p strip holds about 17 at a time).
        filmstrip.prefetchMargin = 3 * (filmstripHeight)
        filmstrip.isHidden = photoCount < 2
        filmstrip.itemCount = photoCount
        // After a drop the strip already shows the new order (and its thumbnail is landing).
        if !filmstrip.isReordering { filmstrip.reloadData() }
        // The page change that follows puts the ring on and the strip in place, without sliding.
        filmstrip.selectedIndex = nil
    }

    /// Rings photo `index` and scrolls it to the middle (sliding there, unless the strip has
    /// just been filled), unless a finger is on the strip.
    func filmstripFollow(_ index: Int) {
        let slides = filmstrip.selectedIndex != nil && window != nil
        filmstrip.selectedIndex = photoCount > 0 ? index : nil
        guard !isFilmstripInUse else { return }
        filmstrip.centerItem(index, animated: slides)
    }

    /// A thumbnail was dragged from `from` to `to`: the owner reorders, the album keeps showing
    /// the photo it showed, now at its new index.
    private func filmstripMoved(from: Int, to: Int) {
        let shown = Self.index(of: centerPageIndex, afterMoving: from, to: to)
        onMovePhoto?(from, to)
        reloadData(centeredAt: shown)
    }

    /// Where the photo at `index` is after the one at `from` moved to `to`.
    public static func index(of index: Int, afterMoving from: Int, to: Int) -> Int {
        if index == from { return to }
        if from < index && index <= to { return index - 1 }
        if to <= index && index < from { return index + 1 }
        return index
    }
}
