import Graphics
import UI

/// Shows one bitmap in its bounds with a content mode, over its background colour.
public final class ImageView: View {
    public var image: Bitmap? {
        didSet { if image !== oldValue { setNeedsDisplay() } }
    }
    public var contentMode: ContentMode = .aspectFit {
        didSet { setNeedsDisplay() }
    }

    public init(frame: Rect = .zero, image: Bitmap? = nil) {
        self.image = image
        super.init(frame: frame)
    }

    /// Where the image lands inside the bounds.
    public var imageRect: Rect? {
        guard let image else { return nil }
        switch contentMode {
        case .aspectFit: return bounds.aspectFit(image.size)
        case .aspectFill, .scaleToFill: return bounds
        }
    }

    public override func draw(in context: DrawContext) {
        guard let image else { return }
        switch contentMode {
        case .aspectFit:
            context.draw(image, in: bounds.aspectFit(image.size))
        case .aspectFill:
            context.draw(image, from: Canvas.aspectFillSource(imageSize: image.size, destination: bounds.size), in: bounds)
        case .scaleToFill:
            context.draw(image, in: bounds)
        }
    }
}
