import Graphics

/// One tile of an image pyramid. `resolution` 0 is full size, −1 half, −2 a quarter, ...
/// (ScrollViewSuite's Tiling numbering); each level is cut into `tileSize` squares from the
/// top-left, the last column and row keeping what is left.
public struct TileID: Hashable, Sendable, CustomStringConvertible {
    public var resolution: Int
    public var column: Int
    public var row: Int

    /// The tile `levels` steps coarser that covers this one.
    public func ancestor(levels: Int) -> TileID {
        TileID(resolution: resolution - levels, column: column >> levels, row: row >> levels)
    }

    public var description: String { "r\(resolution)/\(column)_\(row)" }
}

/// A loaded tile: its pixels and where the tile's own square lies inside them (tiles with
/// Deep Zoom overlap carry extra pixels from their neighbours around it).
public struct TileImage {
    public var bitmap: Bitmap
    /// The tile's area in `bitmap`'s pixels; the whole bitmap when nil.
    public var contentRect: Rect

    public init(bitmap: Bitmap, contentRect: Rect? = nil) {
        self.bitmap = bitmap
        self.contentRect = contentRect ?? Rect(size: bitmap.size)
    }
}
