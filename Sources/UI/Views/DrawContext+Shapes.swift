import Graphics

// Anti-aliased shapes in a view's own coordinates (see Canvas+Shapes).
extension DrawContext {
    public func fillRoundedRect(_ rect: Rect, radius: Double, color: Color) {
        canvas.fillRoundedRect(canvasRect(rect), radius: radius * scale, color: color)
    }

    public func fillEllipse(in rect: Rect, color: Color) {
        canvas.fillEllipse(in: canvasRect(rect), color: color)
    }

    public func fillShadow(of rect: Rect, radius: Double, offset: Point, spread: Double, color: Color) {
        canvas.fillShadow(of: canvasRect(rect), radius: radius * scale, offset: offset * scale,
                          spread: spread * scale, color: color)
    }

    /// Text with a soft dark shadow a pixel below and right, so it reads over bright and dark
    /// photos alike.
    public func drawShadowedText(_ text: String, centeredIn rect: Rect, font: Font, color: Color) {
        let offset = max(1, (font.lineHeight / 18).rounded())
        drawText(text, centeredIn: rect.offsetBy(dx: offset, dy: offset), font: font, color: Color(rgb: 0, alpha: 170))
        drawText(text, centeredIn: rect, font: font, color: color)
    }

    @discardableResult
    public func drawShadowedText(_ text: String, at origin: Point, font: Font, color: Color) -> Double {
        let offset = max(1, (font.lineHeight / 18).rounded())
        drawText(text, at: Point(x: origin.x + offset, y: origin.y + offset), font: font, color: Color(rgb: 0, alpha: 170))
        return drawText(text, at: origin, font: font, color: color)
    }
}
