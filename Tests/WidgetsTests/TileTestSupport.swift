import Graphics
import UI
import Widgets

/// A provider that cuts tiles from a bitmap it holds, the way a pyramid would store them, and
/// hands them over only when the test says so (`deliverAll`), like a loader on the event loop.
final class CuttingTileProvider: TiledImageProvider {
    let image: Bitmap
    let tileSize: Int
    var onTileLoaded: ((TileID) -> Void)?
    private(set) var wanted: [TileID: Double] = [:]
    private(set) var loaded: [TileID: TileImage] = [:]
    private var levels: [Int: Bitmap] = [:]
    let grid: TileGrid

    init(image: Bitmap, tileSize: Int = 256) {
        self.image = image
        self.tileSize = tileSize
        grid = TileGrid(imageWidth: image.width, imageHeight: image.height, tileSize: tileSize)
    }

    var imageSize: Size { image.size }
    var minimumResolution: Int { -12 }

    func tile(_ id: TileID) -> TileImage? { loaded[id] }

    func updateWantedTiles(_ priorities: [TileID: Double]) { wanted = priorities }

    /// Loads every wanted tile (most urgent first) and tells the view.
    func deliverAll() {
        for (id, _) in wanted.sorted(by: { $0.value < $1.value }) where loaded[id] == nil {
            loaded[id] = TileImage(bitmap: cut(id))
            onTileLoaded?(id)
        }
    }

    func deliver(_ id: TileID) {
        loaded[id] = TileImage(bitmap: cut(id))
        onTileLoaded?(id)
    }

    func forget(_ id: TileID) { loaded[id] = nil }

    /// The level as a bitmap: the full image halved repeatedly (box filter per halving).
    func level(_ r: Int) -> Bitmap {
        if r == 0 { return image }
        if let b = levels[r] { return b }
        let above = level(r + 1)
        let size = grid.levelSize(r)
        let b = Bitmap(width: size.width, height: size.height)
        Canvas(target: b).draw(above, in: Rect(x: 0, y: 0, width: Double(above.width) / 2, height: Double(above.height) / 2))
        levels[r] = b
        return b
    }

    func cut(_ id: TileID) -> Bitmap {
        let rect = grid.rect(of: id)
        let tile = Bitmap(width: rect.width, height: rect.height)
        Canvas(target: tile).draw(level(id.resolution), from: rect.rect, in: Rect(x: 0, y: 0, width: rect.width, height: rect.height))
        return tile
    }
}

/// A provider of an image too big to hold: only its size, tiles never arrive (tile counting).
final class SizeOnlyTileProvider: TiledImageProvider {
    let imageSize: Size
    let tileSize = 256
    var minimumResolution: Int { -16 }
    var onTileLoaded: ((TileID) -> Void)?
    private(set) var wanted: [TileID: Double] = [:]

    init(width: Int, height: Int) { imageSize = Size(width: width, height: height) }

    func tile(_ id: TileID) -> TileImage? { nil }
    func updateWantedTiles(_ priorities: [TileID: Double]) { wanted = priorities }
}

/// A smooth test picture: gradients plus slow waves, so scaling errors stay small.
func smoothImage(width: Int, height: Int) -> Bitmap {
    let b = Bitmap(width: width, height: height)
    for y in 0..<height {
        let g = UInt32(y * 255 / max(1, height - 1))
        let row = b.row(y).assumingMemoryBound(to: UInt32.self)
        for x in 0..<width {
            let r = UInt32(x * 255 / max(1, width - 1))
            let bl = UInt32(((x / 64 + y / 64) % 2) * 60 + 100)
            row[x] = 0xFF00_0000 | r << 16 | g << 8 | bl
        }
    }
    return b
}
