import Graphics

// Drawing the tree into the damaged areas only. Each damage rectangle is redrawn on its own
// with the canvas clipped to it, walking only the views that reach into it.

extension Window {
    /// Lays out, moves the pixels of a scroll view that scrolled by whole pixels (see
    /// Window+ScrollCopy), redraws the damaged areas into `canvas` (which must map window
    /// coordinates 1:1, as a fresh Canvas over the frame buffer does) and returns every area
    /// that changed, so the display copies only those rectangles.
    @discardableResult
    public func render(into canvas: Canvas) -> [PixelRect] {
        layoutIfNeeded()
        let copied = performScrollCopy(on: canvas)
        lastRenderTarget = canvas.target
        videoFrameChanged = false
        let rects = damage.rects
        damage.removeAll()
        for rect in rects {
            canvas.save()
            canvas.clip(toDevice: rect)
            draw(self, canvas: canvas, origin: position + transform.translation, scale: transform.scale)
            canvas.restore()
        }
        guard let copied else { return rects }
        return [copied] + rects.filter { !copied.contains($0) }
    }

    /// Draws `view` whose frame origin is at device point `origin`, `scale` device pixels per point.
    private func draw(_ view: View, canvas: Canvas, origin: Point, scale: Double) {
        guard !view.isHidden, view.alpha >= 0.01 else { return }
        canvas.save()
        defer { canvas.restore() }
        let deviceRect = Rect(origin: origin, size: view.bounds.size * scale)
        let ownArea = PixelRect(snapping: deviceRect).intersection(canvas.clipRect)
        if view.clipsToBounds {
            canvas.clip(toDevice: PixelRect(snapping: deviceRect))
            if canvas.clipRect.isEmpty { return }
        }
        canvas.multiplyAlpha(view.alpha)
        // Canvas point p·scale lands on device point origin + (p − bounds.origin)·scale.
        let translation = origin - view.bounds.origin * scale
        canvas.translate(by: translation - canvas.translation)
        if !ownArea.isEmpty && !isCovered(ownArea, bySubviewOf: view, origin: origin, scale: scale) {
            let clip = ownArea.rect
            let dirty = Rect(origin: view.bounds.origin + (clip.origin - origin) * (1 / scale),
                             size: clip.size * (1 / scale))
            let context = DrawContext(canvas: canvas, scale: scale, dirtyRect: dirty)
            if let background = view.backgroundColor, background.alpha > 0 {
                context.fill(view.bounds, color: background)
            }
            view.draw(in: context)
        }
        for subview in view.subviews {
            draw(subview, canvas: canvas, origin: subviewOrigin(subview, in: view, origin: origin, scale: scale),
                 scale: scale * subview.transform.scale)
        }
        if !ownArea.isEmpty {
            let clip = ownArea.rect
            let dirty = Rect(origin: view.bounds.origin + (clip.origin - origin) * (1 / scale),
                             size: clip.size * (1 / scale))
            view.drawForeground(in: DrawContext(canvas: canvas, scale: scale, dirtyRect: dirty))
        }
    }

    /// Device point of `subview`'s frame origin, `view`'s frame origin being at `origin`.
    private func subviewOrigin(_ subview: View, in view: View, origin: Point, scale: Double) -> Point {
        origin + (subview.frame.origin - view.bounds.origin) * scale
    }

    /// Whether an opaque view among `view`'s subviews, or theirs, paints all of `area` (device
    /// pixels), so what `view` draws itself there would be painted over: a full-screen view skips
    /// the window's fill, and a playing clip the black of the pages behind it, 30 times a second.
    /// A descendant counts only where the views between keep all of it (not clipped, not faded).
    private func isCovered(_ area: PixelRect, bySubviewOf view: View, origin: Point, scale: Double, depth: Int = 0) -> Bool {
        view.subviews.contains { subview in
            guard !subview.isHidden, subview.alpha >= 1 else { return false }
            let subOrigin = subviewOrigin(subview, in: view, origin: origin, scale: scale)
            let subScale = scale * subview.transform.scale
            let rect = PixelRect(snapping: Rect(origin: subOrigin, size: subview.bounds.size * subScale))
            guard rect.contains(area) || !subview.clipsToBounds else { return false }
            if subview.isOpaque { return rect.contains(area) }
            return depth < 4 && isCovered(area, bySubviewOf: subview, origin: subOrigin, scale: subScale, depth: depth + 1)
        }
    }
}
