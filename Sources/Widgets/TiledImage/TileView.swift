import Graphics
import UI

/// One live tile: draws its bitmap, or — while that is still loading — the nearest coarser
/// loaded tile's matching part scaled up, so a tile is never a blank hole. With nothing loaded
/// at all it draws the placeholder, or nothing when a view beneath shows the same picture.
final class TileView: View {
    var id = TileID(resolution: 0, column: 0, row: 0)
    /// The tile's pixels in its level (what `bounds` shows).
    var levelRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
    weak var provider: TiledImageProvider?
    /// The coarsest resolution to fall back to.
    var coarsest = 0
    var placeholderColor = Color(rgb: 0x202024)
    /// False while a view beneath shows this part of the image at the same place (a photo
    /// page's lower-resolution decode): a tile with nothing to draw then lets it show through.
    var drawsPlaceholder = true {
        didSet { if drawsPlaceholder != oldValue { setNeedsDisplay() } }
    }
    /// Whether the last draw used the tile's own bitmap.
    private(set) var showsOwnImage = false
    /// Nearest-neighbour while the fingers pinch (every tile is rescaled every frame then);
    /// bilinear once the zoom settles and the view has snapped back to near 1:1 tiles.
    var quality: ScalingQuality = .bilinear {
        didSet { if quality != oldValue { setNeedsDisplay() } }
    }

    override func draw(in context: DrawContext) {
        showsOwnImage = false
        guard let provider else { drawPlaceholder(in: context); return }
        if let image = provider.tile(id) {
            showsOwnImage = true
            context.draw(image.bitmap, from: image.contentRect, in: bounds, quality: quality)
            return
        }
        let tileSize = Double(provider.tileSize)
        var up = 1
        while id.resolution - up >= coarsest {
            let parent = id.ancestor(levels: up)
            if let image = provider.tile(parent) {
                let f = 1 / Double(1 << up)
                // This tile's pixels in the parent level, relative to the parent tile's origin.
                let x = Double(levelRect.x) * f - Double(parent.column) * tileSize
                let y = Double(levelRect.y) * f - Double(parent.row) * tileSize
                var source = Rect(x: image.contentRect.minX + x, y: image.contentRect.minY + y,
                                  width: Double(levelRect.width) * f, height: Double(levelRect.height) * f)
                source = source.intersection(image.contentRect)
                if !source.isEmpty {
                    context.draw(image.bitmap, from: source, in: bounds, quality: quality)
                    return
                }
            }
            up += 1
        }
        drawPlaceholder(in: context)
    }

    private func drawPlaceholder(in context: DrawContext) {
        if drawsPlaceholder { context.fill(bounds, color: placeholderColor) }
    }

    /// Whether this tile's picture depends on `other` (itself or a coarser tile covering it).
    func depends(on other: TileID) -> Bool {
        let up = id.resolution - other.resolution
        return up >= 0 && id.ancestor(levels: up) == other
    }
}
