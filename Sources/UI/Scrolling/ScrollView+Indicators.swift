import Graphics

// Scroll indicators: thin bars drawn above the content while it moves, faded out after.

extension ScrollView {
    static let indicatorThickness = 3.0
    static let indicatorInset = 3.0
    static let indicatorMinimumLength = 36.0
    static let indicatorFadeDuration = 0.3
    static let indicatorColor = Color(red: 0x80, green: 0x80, blue: 0x80, alpha: 200)

    /// Bars in bounds coordinates (nil where the axis does not scroll).
    var indicatorRects: (horizontal: Rect?, vertical: Rect?) {
        let lo = minimumContentOffset, hi = maximumContentOffset
        let t = Self.indicatorThickness, inset = Self.indicatorInset
        func bar(offset: Double, lo: Double, hi: Double, viewport: Double) -> (start: Double, length: Double)? {
            guard hi > lo else { return nil }
            let track = viewport - 2 * inset - t
            var length = max(Self.indicatorMinimumLength, track * viewport / (hi - lo + viewport))
            // Shrinks while rubber-banding, like UIKit.
            let overshoot = offset < lo ? lo - offset : (offset > hi ? offset - hi : 0)
            length = max(t * 2, min(length, track) - overshoot)
            let fraction = min(max((offset - lo) / (hi - lo), 0), 1)
            return (inset + (track - length) * fraction, length)
        }
        var horizontal: Rect?, vertical: Rect?
        if showsHorizontalScrollIndicator,
           let b = bar(offset: contentOffset.x, lo: lo.x, hi: hi.x, viewport: bounds.width) {
            horizontal = Rect(x: bounds.minX + b.start, y: bounds.maxY - inset - t, width: b.length, height: t)
        }
        if showsVerticalScrollIndicator,
           let b = bar(offset: contentOffset.y, lo: lo.y, hi: hi.y, viewport: bounds.height) {
            vertical = Rect(x: bounds.maxX - inset - t, y: bounds.minY + b.start, width: t, height: b.length)
        }
        return (horizontal, vertical)
    }

    func showIndicators() {
        indicatorFade?.cancel()
        indicatorFade = nil
        if indicatorAlpha != 1 {
            indicatorAlpha = 1
            damageIndicators()
        }
    }

    func fadeIndicators() {
        guard indicatorAlpha > 0, !isDragging, !isMoving, !isZooming, indicatorFade == nil else { return }
        guard let animator = window?.animator else {
            indicatorAlpha = 0
            return
        }
        indicatorFade = animator.animate(duration: Self.indicatorFadeDuration, easing: .linear, update: { [weak self] p in
            self?.indicatorAlpha = 1 - p
            self?.damageIndicators()
        }, completion: { [weak self] _ in self?.indicatorFade = nil })
    }

    private func damageIndicators() {
        let rects = indicatorRects
        if let h = rects.horizontal { setNeedsDisplay(h) }
        if let v = rects.vertical { setNeedsDisplay(v) }
    }

    /// The bars while they show (what `drawForeground` paints).
    var visibleIndicatorRects: [Rect] {
        guard indicatorAlpha > 0 else { return [] }
        let rects = indicatorRects
        return [rects.horizontal, rects.vertical].compactMap { $0 }
    }

    func drawIndicators(in context: DrawContext) {
        guard indicatorAlpha > 0 else { return }
        let color = Self.indicatorColor.withAlpha(indicatorAlpha)
        let rects = indicatorRects
        if let h = rects.horizontal { context.fill(h, color: color) }
        if let v = rects.vertical { context.fill(v, color: color) }
    }
}
