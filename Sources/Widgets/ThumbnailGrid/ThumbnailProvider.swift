import Graphics

/// What a grid cell can show for a photo right now.
public enum ThumbnailState {
    /// Not decoded yet: a placeholder is drawn.
    case loading
    case image(Bitmap)
    /// The file could not be decoded; the reason is logged once by the provider.
    case failed(reason: String)
}

/// Supplies thumbnails to a `ThumbnailGridView` without the grid knowing about files, decoders
/// or threads. The app implements it with its image loader and caches.
public protocol ThumbnailProvider: AnyObject {
    /// The best thumbnail available now for `index`.
    func thumbnailState(at index: Int, edge: Int) -> ThumbnailState
    /// The cells that exist now (visible plus prefetch margin) with their urgency — smaller
    /// distance first. Anything not listed is no longer wanted: its load may be cancelled and its
    /// bitmap unpinned. When a wanted thumbnail arrives, the provider calls
    /// `ThumbnailGridView.thumbnailDidChange(at:)`.
    func updateWantedThumbnails(_ distances: [Int: Double], edge: Int)
    /// True while the grid is flung too fast for thumbnails to be seen: loads not started yet
    /// should wait. False when it has slowed down: load what is wanted now (the cells of the
    /// last `updateWantedThumbnails`, the ones still on or near the screen).
    func setLoadsDeferred(_ deferred: Bool)
    /// The length of the clip at `index`, for the cell's badge; nil for a still (or a clip whose
    /// length is not known yet: the grid asks again when its thumbnail arrives).
    func clipDuration(at index: Int) -> Duration?
    /// Whether the photo at `index` is a Live Photo (its cell's "LIVE" badge).
    func isLivePhoto(at index: Int) -> Bool
}

extension ThumbnailProvider {
    /// Providers without clips.
    public func clipDuration(at index: Int) -> Duration? { nil }

    /// Providers without Live Photos.
    public func isLivePhoto(at index: Int) -> Bool { false }

    /// Providers whose thumbnails cost nothing ignore the fling.
    public func setLoadsDeferred(_ deferred: Bool) {}
}
