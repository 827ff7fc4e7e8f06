import Graphics

/// Supplies the tiles of one image to a `TiledImageView` without the view knowing about
/// files, decoders or threads (the app implements it over its loader and caches; tests with a
/// bitmap they cut themselves).
public protocol TiledImageProvider: AnyObject {
    /// Full-resolution size in pixels.
    var imageSize: Size { get }
    /// Edge of a tile in pixels (256 by default in Deep Zoom pyramids).
    var tileSize: Int { get }
    /// The coarsest resolution that has tiles (−maxLevel for a Deep Zoom pyramid).
    var minimumResolution: Int { get }
    /// Told when a tile that was asked for has arrived; the view redraws what shows it.
    var onTileLoaded: ((TileID) -> Void)? { get set }

    /// The tile if it is available now (memory cache), nil otherwise.
    func tile(_ id: TileID) -> TileImage?
    /// Every tile the view wants now with its urgency (smaller first). Anything not listed is no
    /// longer wanted: its load may be cancelled and its bitmap unpinned. Urgencies of
    /// `TiledImageView.standInPriority` and more are stand-ins (coarser tiles covering ones that
    /// load); below it the tile is on screen (or is the one-tile level, at −1).
    func updateWantedTiles(_ priorities: [TileID: Double])
}
