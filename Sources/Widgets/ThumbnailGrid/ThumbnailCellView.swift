import Graphics
import UI

/// One cell of the grid: the thumbnail cropped to a square, a placeholder while it loads, or a
/// "broken photo" tile when it could not be decoded. A clip's thumbnail (its poster frame)
/// carries its length at the bottom right, on a dark pill; a Live Photo's still carries "LIVE".
public final class ThumbnailCellView: View {
    public static let placeholderColor = Color(rgb: 0x2A2A2E)
    public static let brokenColor = Color(rgb: 0x4A2626)

    public internal(set) var index = 0
    var font: Font?

    public var state: ThumbnailState = .loading {
        didSet { setNeedsDisplay() }
    }

    /// The clip's length when the cell shows a clip; nil for a still.
    public var clipDuration: Duration? {
        didSet { if clipDuration != oldValue { setNeedsDisplay() } }
    }

    /// Whether the cell shows a Live Photo (a still with its motion clip attached).
    public var isLivePhoto = false {
        didSet { if isLivePhoto != oldValue { setNeedsDisplay() } }
    }

    static let liveBadgeText = "LIVE"
    static let badgeBacking = Color(rgb: 0x000000, alpha: 150)
    static let badgeText = Color(rgb: 0xFFFFFF)

    public override func draw(in context: DrawContext) {
        let area = bounds
        switch state {
        case .loading:
            context.fill(area, color: Self.placeholderColor)
        case .image(let bitmap):
            if !drawPixelAligned(bitmap, in: context) {
                context.draw(bitmap, from: Canvas.aspectFillSource(imageSize: bitmap.size, destination: area.size), in: area)
            }
            if let font, let badge = clipDuration.map(ClipDurationText.format) ?? (isLivePhoto ? Self.liveBadgeText : nil) {
                drawBadge(badge, font: font, in: context)
            }
        case .failed:
            context.fill(area, color: Self.brokenColor)
            // A torn-corner mark that reads as "broken" without any text at small sizes.
            let s = min(area.width, area.height) / 4
            let mark = Rect(x: area.midX - s / 2, y: area.midY - s / 2 - s / 3, width: s, height: s)
            context.stroke(mark, color: Color(rgb: 0xD08080), width: max(2, s / 12))
            context.fill(Rect(x: mark.minX, y: mark.midY - 1, width: mark.width, height: max(2, s / 12)), color: Color(rgb: 0xD08080))
            if let font {
                context.drawText("broken photo", centeredIn: Rect(x: area.minX + 4, y: mark.maxY + 4, width: area.width - 8,
                                                                 height: font.lineHeight), font: font, color: Color(rgb: 0xE0C0C0))
            }
        }
    }

    /// The length (or "LIVE") on a dark pill in the bottom-right corner: readable over a white or busy
    /// poster, covering as little of it as it can.
    private func drawBadge(_ text: String, font: Font, in context: DrawContext) {
        let area = bounds
        let padding = (font.lineHeight / 3).rounded()
        let width = font.width(of: text) + 2 * padding, height = font.lineHeight + padding / 2
        let margin = max(2, (min(area.width, area.height) / 24).rounded())
        guard width + 2 * margin <= area.width, height + 2 * margin <= area.height else { return }
        let pill = Rect(x: area.maxX - margin - width, y: area.maxY - margin - height, width: width, height: height)
        context.fillRoundedRect(pill, radius: height / 2, color: Self.badgeBacking)
        context.drawText(text, centeredIn: pill, font: font, color: Self.badgeText)
    }

    /// Cells sit at fractional positions (the columns fill the width exactly) and thumbnails are
    /// decoded to cover the cell rounded up, so scaling would resample every thumbnail on every
    /// scrolled frame. At zoom 1 the thumbnail's centre is copied 1:1 into the cell's snapped
    /// pixels instead: a plain copy, and sharper. False when the bitmap is smaller than the cell.
    private func drawPixelAligned(_ bitmap: Bitmap, in context: DrawContext) -> Bool {
        guard context.scale == 1 else { return false }
        let canvas = context.canvas
        let device = bounds.offsetBy(dx: canvas.translation.x, dy: canvas.translation.y)
        let x0 = device.minX.snappedToPixel, y0 = device.minY.snappedToPixel
        let width = device.maxX.snappedToPixel - x0, height = device.maxY.snappedToPixel - y0
        guard width > 0, height > 0, Double(bitmap.width) >= width, Double(bitmap.height) >= height else { return false }
        let source = Rect(x: ((Double(bitmap.width) - width) / 2).rounded(.down),
                          y: ((Double(bitmap.height) - height) / 2).rounded(.down), width: width, height: height)
        canvas.save()
        // Device coordinates exactly (t + (−t) is exactly 0), so the copy is whole-pixel.
        canvas.translate(by: Point(x: -canvas.translation.x, y: -canvas.translation.y))
        canvas.draw(bitmap, from: source, in: Rect(x: x0, y: y0, width: width, height: height))
        canvas.restore()
        return true
    }
}
