import Graphics
import Imaging
import UI
import Widgets

/// A full-screen view of one photo: the grid's thumbnail first, scaled to the photo's final size,
/// then the screen-sized decode. Never replaced by a lower quality. A tap closes it.
public final class PhotoViewer: View {
    public enum Quality: Int, Comparable {
        case none, thumbnail, screen
        public static func < (a: Quality, b: Quality) -> Bool { a.rawValue < b.rawValue }
    }

    public let path: RawPath
    public let index: Int
    public private(set) var quality: Quality = .none
    public private(set) var failure: String?
    var ticket: LoadTicket?
    var onClose: (() -> Void)?
    private let imageView = ImageView()

    init(frame: Rect, path: RawPath, index: Int) {
        self.path = path
        self.index = index
        super.init(frame: frame)
        backgroundColor = .black
        imageView.frame = bounds
        imageView.isUserInteractionEnabled = false
        addSubview(imageView)
        addGestureRecognizer(TapGestureRecognizer { [weak self] recognizer in
            if recognizer.state == .recognized { self?.onClose?() }
        })
    }

    /// True once the best image this viewer will get is on screen (or it failed).
    public var isFinal: Bool { quality == .screen || failure != nil }

    func show(_ bitmap: Bitmap, quality: Quality) {
        guard quality > self.quality else { return }
        self.quality = quality
        imageView.image = bitmap
    }

    func showFailure(_ message: String) {
        failure = message
        setNeedsDisplay()
    }

    public override func layoutSubviews() {
        imageView.frame = bounds
    }

    public override func handleKey(_ key: KeyEvent) -> Bool {
        if key == .escape || key == .enter { onClose?(); return true }
        return false
    }

    public override func draw(in context: DrawContext) {
        guard failure != nil, quality == .none else { return }
        context.fill(bounds.insetBy(dx: bounds.width / 3, dy: bounds.height / 3), color: ThumbnailCellView.brokenColor)
    }
}
