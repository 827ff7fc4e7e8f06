import Graphics
import UI

/// One line of text on a dark translucent backing (the "‹ Grid" button, the caption). Without a
/// font it draws only the backing and an optional chevron, so it still reads as a control.
final class AlbumLabelView: View {
    var text = "" {
        didSet { if text != oldValue { setNeedsDisplay() } }
    }
    var font: Font? {
        didSet { setNeedsDisplay() }
    }
    /// Draws a "‹" mark of its own when there is no font (the back button).
    var drawsChevronWithoutFont = false
    var centersText = true

    override func draw(in context: DrawContext) {
        guard !text.isEmpty else { return }
        context.fill(bounds, color: PageIndicatorView.pillColor)
        if let font {
            if centersText {
                context.drawText(text, centeredIn: bounds.insetBy(dx: 8, dy: 0), font: font, color: .white)
            } else {
                let shown = font.truncated(text, toFit: bounds.width - 16)
                let baseline = bounds.midY + (font.ascender + font.descender) / 2
                context.drawText(shown, at: Point(x: bounds.minX + 8, y: baseline), font: font, color: .white)
            }
        } else if drawsChevronWithoutFont {
            // Two short bars meeting at a point: "<".
            let h = bounds.height / 3, x = bounds.minX + bounds.height / 2, y = bounds.midY
            for i in 0..<Int(h) {
                let d = Double(i)
                context.fill(Rect(x: x + d / 2, y: y - d - 1, width: 3, height: 2), color: .white)
                context.fill(Rect(x: x + d / 2, y: y + d - 1, width: 3, height: 2), color: .white)
            }
        }
    }
}
