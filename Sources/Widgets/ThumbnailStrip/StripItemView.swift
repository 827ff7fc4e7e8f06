import Graphics
import UI

/// One thumbnail of a strip. Unlike grid cells it takes touches itself, as the seed's
/// ThumbImageView does: with the strip's delaysContentTouches on and canCancelContentTouches
/// off, a finger that rests briefly and then moves past the drag threshold drags the
/// thumbnail instead of scrolling the strip; a quick swipe still scrolls.
final class StripItemView: View {
    let cell = ThumbnailCellView()
    weak var strip: ThumbnailStripView?
    var index = 0 {
        didSet { cell.index = index }
    }
    private var isDragging = false
    /// Drawn with a white ring around the thumbnail (the photo the album shows).
    var isSelected = false {
        didSet {
            guard isSelected != oldValue else { return }
            setNeedsLayout()
            setNeedsDisplay()
        }
    }
    /// The ring's width.
    var ringWidth: Double { max(2, (bounds.width / 24).rounded()) }

    override init(frame: Rect = .zero) {
        super.init(frame: frame)
        cell.isUserInteractionEnabled = false
        isExclusiveTouch = true
        addSubview(cell)
    }

    override func layoutSubviews() {
        let inset = isSelected ? ringWidth + 1 : 0
        cell.frame = Rect(size: bounds.size).insetBy(dx: inset, dy: inset)
    }

    override func draw(in context: DrawContext) {
        guard isSelected else { return }
        context.fillRoundedRect(bounds, radius: ringWidth * 1.5, color: .white)
        let gap = bounds.insetBy(dx: ringWidth, dy: ringWidth)
        context.fill(gap, color: .black)
    }

    override func touchesBegan(_ touches: [Touch]) {
        isDragging = false
    }

    override func touchesMoved(_ touches: [Touch]) {
        guard let touch = touches.first, let strip else { return }
        if isDragging {
            strip.reorderDrag?.move(to: touch.location)
        } else if touch.location.distance(to: touch.startLocation) > ThumbnailStripView.dragThreshold * strip.reorderDensity,
                  strip.beginReorder(self, finger: touch.location) {
            isDragging = true
        }
    }

    override func touchesEnded(_ touches: [Touch]) {
        if isDragging {
            finishDrag(touches)
        } else if let touch = touches.first, let strip,
                  touch.location.distance(to: touch.startLocation) <= ThumbnailStripView.dragThreshold * strip.reorderDensity {
            strip.onSelect?(index)
        }
    }

    override func touchesCancelled(_ touches: [Touch]) {
        if isDragging { finishDrag(touches) }
    }

    private func finishDrag(_ touches: [Touch]) {
        isDragging = false
        guard let drag = strip?.reorderDrag, !drag.isLanding, drag.lifted.item === self else { return }
        if let touch = touches.first { drag.move(to: touch.location) }
        drag.drop()
    }
}
