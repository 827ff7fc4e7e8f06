/// The geometry of a Deep Zoom (DZI) pyramid as OpenSeadragon reads it: level `maxLevel` is the
/// full image, each level below is half as big (rounded up), level 0 is about one pixel.
/// Tiles are `tileSize` squares on a grid; with `overlap` each tile also carries that many
/// pixels of its neighbours on every side that has one (libvips dzsave writes 254 + 1).
public struct DeepZoomLayout: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public var tileSize: Int
    public var overlap: Int

    public init(width: Int, height: Int, tileSize: Int = 256, overlap: Int = 0) {
        precondition(width > 0 && height > 0 && tileSize > 0 && overlap >= 0, "bad Deep Zoom layout")
        self.width = width
        self.height = height
        self.tileSize = tileSize
        self.overlap = overlap
    }

    /// ceil(log2(max(width, height))).
    public var maxLevel: Int {
        var level = 0
        while (1 << level) < max(width, height) { level += 1 }
        return level
    }

    /// Pixel size of `level`: ceil(dimension / 2^(maxLevel − level)).
    public func levelSize(_ level: Int) -> (width: Int, height: Int) {
        let shift = maxLevel - level
        return ((width + (1 << shift) - 1) >> shift, (height + (1 << shift) - 1) >> shift)
    }

    public func tileCount(_ level: Int) -> (columns: Int, rows: Int) {
        let size = levelSize(level)
        return ((size.width + tileSize - 1) / tileSize, (size.height + tileSize - 1) / tileSize)
    }

    /// The pixels of `level` stored in tile (column, row): its grid square widened by the
    /// overlap towards each neighbour, clipped to the level.
    public func storedRect(level: Int, column: Int, row: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let size = levelSize(level)
        let x0 = column * tileSize - (column == 0 ? 0 : overlap)
        let y0 = row * tileSize - (row == 0 ? 0 : overlap)
        let x1 = min(size.width, (column + 1) * tileSize + overlap)
        let y1 = min(size.height, (row + 1) * tileSize + overlap)
        return (x0, y0, max(0, x1 - x0), max(0, y1 - y0))
    }

    /// Where the tile's own grid square lies inside its stored pixels.
    public func contentRect(level: Int, column: Int, row: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let size = levelSize(level)
        let x = column == 0 ? 0 : overlap, y = row == 0 ? 0 : overlap
        return (x, y, max(0, min(tileSize, size.width - column * tileSize)), max(0, min(tileSize, size.height - row * tileSize)))
    }

    /// Tiles in every level together.
    public var totalTileCount: Int {
        (0...maxLevel).reduce(0) { sum, level in
            let count = tileCount(level)
            return sum + count.columns * count.rows
        }
    }
}
