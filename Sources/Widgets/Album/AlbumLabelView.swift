import Graphics
import UI

/// One line of text on a dark translucent rounded backing with a soft shadow (the "‹ Grid"
/// button, the caption), white text with a dark shadow of its own: readable over bright and
/// dark photos. Without a font it draws only the backing and an optional chevron, so it still
/// reads as a control.
final class AlbumLabelView: View {
    static let backingColor = PageIndicatorView.pillColor
    /// A light rim under the dark backing: the backing stays visible over black (the side bars
    /// beside a portrait photo) where a dark shadow and a dark fill alone vanish.
    static let rimColor = Color(rgb: 0xFFFFFF, alpha: 110)
    var text = "" {
        didSet { if text != oldValue { setNeedsDisplay() } }
    }
    var font: Font? {
        didSet { setNeedsDisplay() }
    }
    var metrics = ChromeMetrics() {
        didSet { if metrics != oldValue { setNeedsDisplay() } }
    }
    /// Draws a "‹" mark of its own when there is no font (the back button).
    var drawsChevronWithoutFont = false
    var centersText = true

    /// Where the backing is drawn: the bounds less room for the shadow (which must stay inside
    /// the bounds: a view draws only there, or incremental redraws would leave traces).
    var backingFrame: Rect {
        let room = metrics.pixels(2)
        return Rect(x: bounds.minX + room, y: bounds.minY + room, width: bounds.width - 2 * room,
                    height: bounds.height - 2 * room - metrics.pixels(1))
    }

    /// The size that fits `text` in `font` with padding and room for the shadow.
    func preferredSize(minimumHeight: Double) -> Size {
        let line = font?.lineHeight ?? metrics.pixels(16)
        let width = (font?.width(of: text) ?? metrics.pixels(40)) + 2 * metrics.pixels(14) + 2 * metrics.pixels(2)
        return Size(width: width.rounded(.up),
                    height: max(minimumHeight, line + 2 * metrics.pixels(7) + 2 * metrics.pixels(2) + metrics.pixels(1)).rounded(.up))
    }

    private var cache = DrawingCache()

    /// What the drawing depends on besides the size.
    private struct Look: Hashable {
        var text: String, font: ObjectIdentifier?, metrics: ChromeMetrics, chevron: Bool, centred: Bool, size: Size
    }

    override func draw(in context: DrawContext) {
        guard !text.isEmpty else { return }
        let look = Look(text: text, font: font.map(ObjectIdentifier.init), metrics: metrics,
                        chevron: drawsChevronWithoutFont, centred: centersText, size: bounds.size)
        cache.draw(in: context, bounds: bounds, key: look) { drawContent(in: $0) }
    }

    private func drawContent(in context: DrawContext) {
        let backing = backingFrame
        let radius = min(backing.height / 2, metrics.pixels(12))
        context.fillShadow(of: backing, radius: radius, offset: Point(x: 0, y: metrics.pixels(1)),
                           spread: metrics.pixels(2), color: Color(rgb: 0, alpha: 60))
        let rim = max(1, metrics.pixels(1.5))
        context.fillRoundedRect(backing, radius: radius, color: Self.rimColor)
        context.fillRoundedRect(backing.insetBy(dx: rim, dy: rim), radius: max(0, radius - rim), color: Self.backingColor)
        let padding = metrics.pixels(14)
        if let font {
            if centersText {
                context.drawShadowedText(text, centeredIn: backing.insetBy(dx: padding / 2, dy: 0), font: font, color: .white)
            } else {
                let shown = font.truncated(text, toFit: backing.width - 2 * padding)
                let baseline = (backing.midY + (font.ascender + font.descender) / 2).rounded()
                context.drawShadowedText(shown, at: Point(x: backing.minX + padding, y: baseline), font: font, color: .white)
            }
        } else if drawsChevronWithoutFont {
            // Two short bars meeting at a point: "<".
            let h = backing.height / 3, x = backing.minX + backing.height / 2, y = backing.midY
            for i in 0..<Int(h) {
                let d = Double(i)
                context.fill(Rect(x: x + d / 2, y: y - d - 1, width: 3, height: 2), color: .white)
                context.fill(Rect(x: x + d / 2, y: y + d - 1, width: 3, height: 2), color: .white)
            }
        }
    }
}
