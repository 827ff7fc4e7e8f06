#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Graphics

/// Index math of a tile pyramid: level sizes, tile rectangles (partial last row and column),
/// which tiles a rectangle touches, and the live-tile bound the view keeps.
public struct TileGrid: Hashable, Sendable {
    public let imageWidth: Int
    public let imageHeight: Int
    public let tileSize: Int

    public init(imageWidth: Int, imageHeight: Int, tileSize: Int) {
        precondition(tileSize > 0, "tiles need a positive size")
        self.imageWidth = max(1, imageWidth)
        self.imageHeight = max(1, imageHeight)
        self.tileSize = tileSize
    }

    /// Pixel size of a level: ceil(dimension · 2^resolution), at least 1 (as Deep Zoom counts).
    public func levelSize(_ resolution: Int) -> (width: Int, height: Int) {
        (Self.scaled(imageWidth, resolution), Self.scaled(imageHeight, resolution))
    }

    static func scaled(_ dimension: Int, _ resolution: Int) -> Int {
        guard resolution < 0 else { return dimension << resolution }
        let shift = -resolution
        if shift >= Int.bitWidth - 1 { return 1 }
        return max(1, (dimension + (1 << shift) - 1) >> shift)
    }

    public func tileCount(_ resolution: Int) -> (columns: Int, rows: Int) {
        let size = levelSize(resolution)
        return ((size.width + tileSize - 1) / tileSize, (size.height + tileSize - 1) / tileSize)
    }

    /// The tile's pixels in its level; edge tiles are narrower or shorter.
    public func rect(of tile: TileID) -> PixelRect {
        let size = levelSize(tile.resolution)
        let x = tile.column * tileSize, y = tile.row * tileSize
        return PixelRect(x: x, y: y, width: max(0, min(tileSize, size.width - x)), height: max(0, min(tileSize, size.height - y)))
    }

    public func contains(_ tile: TileID) -> Bool {
        let count = tileCount(tile.resolution)
        return tile.column >= 0 && tile.row >= 0 && tile.column < count.columns && tile.row < count.rows
    }

    /// Tiles of `resolution` that intersect `rect` (level pixels), row by row.
    public func tiles(intersecting rect: Rect, resolution: Int) -> [TileID] {
        let size = levelSize(resolution)
        let area = rect.intersection(Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height)))
        guard !area.isEmpty else { return [] }
        let t = Double(tileSize)
        let count = tileCount(resolution)
        let firstCol = max(0, Int((area.minX / t).rounded(.down))), lastCol = min(count.columns - 1, Int((area.maxX / t).rounded(.up)) - 1)
        let firstRow = max(0, Int((area.minY / t).rounded(.down))), lastRow = min(count.rows - 1, Int((area.maxY / t).rounded(.up)) - 1)
        guard firstCol <= lastCol, firstRow <= lastRow else { return [] }
        var result: [TileID] = []
        result.reserveCapacity((lastCol - firstCol + 1) * (lastRow - firstRow + 1))
        for row in firstRow...lastRow {
            for col in firstCol...lastCol { result.append(TileID(resolution: resolution, column: col, row: row)) }
        }
        return result
    }

    /// The coarsest resolution whose level fits in one tile.
    public var singleTileResolution: Int {
        var r = 0
        while max(levelSize(r).width, levelSize(r).height) > tileSize { r -= 1 }
        return r
    }

    /// The most tile views a viewport of `size` may hold at any zoom:
    /// ceil(W/T + 1) · ceil(H/T + 1) · 4 (on-screen tiles stay between half and full size).
    public static func liveTileBound(viewport size: Size, tileSize: Int) -> Int {
        let t = Double(tileSize)
        return Int((size.width / t + 1).rounded(.up)) * Int((size.height / t + 1).rounded(.up)) * 4
    }

    /// The resolution whose tiles show at between half and full size at `scale` screen pixels
    /// per image pixel: the smallest level at least as sharp as the screen, within the limits.
    public static func displayResolution(forScale scale: Double, minimum: Int, maximum: Int) -> Int {
        guard scale > 0 else { return minimum }
        let r = Int((log2(scale) - 1e-9).rounded(.up))
        return min(max(r, minimum), maximum)
    }
}
