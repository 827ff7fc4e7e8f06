import Graphics
import UI

/// A control's drawing kept as a translucent picture: drawn again only when what it shows
/// changes (`key`), otherwise blended onto the screen in one pixman operation. The album's
/// controls sit over the pages, so every frame of a page turn redraws them; their anti-aliased
/// shapes and shadowed text cost far more than one blend (bench "album while paging").
struct DrawingCache {
    private var picture: Bitmap?
    private var key: AnyHashable?

    /// Draws what `body` draws into `bounds`, from the picture when `key` is unchanged. A zoomed
    /// context (scale ≠ 1) draws directly.
    mutating func draw(in context: DrawContext, bounds: Rect, key: AnyHashable, _ body: (DrawContext) -> Void) {
        let width = Int(bounds.width.rounded(.up)), height = Int(bounds.height.rounded(.up))
        guard context.scale == 1, width > 0, height > 0 else { body(context); return }
        if picture?.width != width || picture?.height != height || self.key != key {
            let bitmap = Bitmap(width: width, height: height, format: .argb8888)
            let canvas = Canvas(target: bitmap)
            canvas.translate(by: Point(x: -bounds.minX, y: -bounds.minY))
            body(DrawContext(canvas: canvas, scale: 1, dirtyRect: bounds))
            picture = bitmap
            self.key = key
        }
        if let picture {
            context.draw(picture, in: Rect(x: bounds.minX, y: bounds.minY, width: Double(width), height: Double(height)))
        }
    }
}
