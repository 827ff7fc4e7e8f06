import Graphics
import UI

/// A thumbnail picked up for reordering: drawn above everything else, a little larger, over a
/// soft shadow. It holds the item's own view as its only subview, so the photo keeps drawing
/// (and keeps receiving the thumbnail when it arrives) while it is carried.
///
/// The view's bounds extend `padding` beyond the item on every side so the shadow is inside the
/// damage the view reports when it moves; item coordinates are the view's own coordinates.
public final class LiftedItemView: View {
    /// How much larger a lifted thumbnail shows.
    public static let liftScale = 1.08
    static let padding = 18.0
    static let shadowOffset = Point(x: 5, y: 9)
    /// Three nested translucent rectangles give a soft edge for the price of three fills.
    static let shadowLayers: [(inset: Double, alpha: UInt8)] = [(-6, 26), (-3, 30), (0, 38)]

    public let item: View
    public let itemSize: Size
    /// Current scale of the item (1 on the grid, `liftScale` when lifted).
    public private(set) var scale = 1.0
    /// 0…1: how strong the shadow is (it fades in on pickup and out on landing).
    public var shadowStrength = 1.0 {
        didSet { if shadowStrength != oldValue { setNeedsDisplay() } }
    }

    public init(item: View) {
        self.item = item
        itemSize = item.bounds.size
        let pad = Self.padding
        super.init(frame: Rect(x: 0, y: 0, width: itemSize.width + 2 * pad, height: itemSize.height + 2 * pad))
        bounds = Rect(x: -pad, y: -pad, width: itemSize.width + 2 * pad, height: itemSize.height + 2 * pad)
        isUserInteractionEnabled = false
        item.transform = .identity
        item.frame = Rect(size: itemSize)
        addSubview(item)
    }

    /// Puts the item's top-left corner at `origin` (superview coordinates) at `scale`.
    public func place(itemOrigin origin: Point, scale: Double) {
        self.scale = scale
        transform = ViewTransform(scale: scale)
        position = origin - Point(x: Self.padding, y: Self.padding) * scale
    }

    /// Where the item shows in the superview.
    public var itemFrame: Rect {
        Rect(origin: position + Point(x: Self.padding, y: Self.padding) * scale, size: itemSize * scale)
    }

    /// Gives the item back (the caller re-adds it to its grid or strip).
    public func releaseItem() -> View {
        item.removeFromSuperview()
        return item
    }

    public override func draw(in context: DrawContext) {
        guard shadowStrength > 0 else { return }
        let base = Rect(origin: Self.shadowOffset, size: itemSize)
        for layer in Self.shadowLayers {
            let alpha = UInt8((Double(layer.alpha) * shadowStrength).rounded())
            context.fill(base.insetBy(dx: layer.inset, dy: layer.inset), color: Color(red: 0, green: 0, blue: 0, alpha: alpha))
        }
    }
}
