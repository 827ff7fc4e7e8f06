import Graphics
import UI

/// The zooming content of a photo page. Its bounds are the photo's ORIGINAL size in points, so
/// the page's zoom scale is screen pixels per original pixel whatever bitmap it holds: a
/// thumbnail or screen-sized decode is drawn scaled up into the same rectangle (Nimbus shows the
/// thumbnail at the original's final size).
final class PhotoContentView: View {
    var bitmap: Bitmap? {
        didSet { if bitmap !== oldValue { setNeedsDisplay() } }
    }
    /// A playing clip's frame, drawn instead of the bitmap (which stays as loaded).
    var motionFrame: VideoFrame? {
        didSet {
            guard motionFrame !== oldValue else { return }
            // On the display's video plane a new frame goes there; the photo again is drawn.
            if isVideoOnPlane && motionFrame != nil { setNeedsVideoFrame() } else { setNeedsDisplay() }
        }
    }

    override var videoContent: (frame: VideoFrame, rect: Rect)? { motionFrame.map { ($0, bounds) } }
    var isBroken = false {
        didSet { if isBroken != oldValue { setNeedsDisplay() } }
    }
    var font: Font?

    /// A clip's frame or an opaque photo paints every pixel of the bounds: the black behind it
    /// is not filled first (a playing clip would fill 8 MB for nothing, 30 times a second).
    override var isOpaque: Bool { motionFrame != nil || bitmap?.format == .xrgb8888 }

    override func draw(in context: DrawContext) {
        if let motionFrame {
            guard bounds.intersects(context.dirtyRect) else { return }
            context.draw(motionFrame, in: bounds, quality: .bilinear)
        } else if let bitmap {
            guard bounds.intersects(context.dirtyRect) else { return }
            let sx = Double(bitmap.width) / bounds.width
            // Within 1% of one bitmap pixel per screen pixel (a screen-sized image at fit zoom, a
            // full image at 1:1) nearest sampling looks the same and costs far less than bilinear.
            let pixelsPerBitmapPixel = context.scale / sx
            let quality: ScalingQuality = abs(pixelsPerBitmapPixel - 1) < 0.01 ? .nearest : .bilinear
            // The whole picture into the whole bounds: the canvas composites only the part being
            // redrawn (cheap at any zoom), and every part samples as a full draw does.
            context.draw(bitmap, in: bounds, quality: quality)
        } else if isBroken {
            drawBrokenTile(in: context)
        }
    }

    /// The grid's broken-photo tile, at a fixed screen size in the middle of the page.
    private func drawBrokenTile(in context: DrawContext) {
        let s = context.scale
        let edge = 240 / s
        let tile = Rect(x: bounds.midX - edge / 2, y: bounds.midY - edge / 2, width: edge, height: edge)
        context.fill(tile, color: ThumbnailCellView.brokenColor)
        let mark = Rect(x: tile.midX - edge / 8, y: tile.midY - edge / 8 - edge / 12, width: edge / 4, height: edge / 4)
        context.stroke(mark, color: Color(rgb: 0xD08080), width: 4)
        if let font {
            context.drawText("broken photo", centeredIn: Rect(x: tile.minX, y: mark.maxY + 8 / s, width: tile.width,
                                                             height: font.lineHeight / s), font: font, color: Color(rgb: 0xE0C0C0))
        }
    }
}
