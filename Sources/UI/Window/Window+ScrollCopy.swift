import Graphics

// Scrolling by copy. When an opaque, clipping scroll view moves its content by whole device
// pixels, the next render moves the pixels already drawn inside the scroll view's clip and
// redraws only what the copy cannot supply, instead of the whole scroll view.
//
// Damage is kept as if each scroll step had already copied the pixels: damage inside the clip
// moves with the stale pixels it marks, the uncovered strip is added, and so is everything
// drawn above the content that does not move with it (later siblings of the scroll view or of
// its ancestors, the scroll indicators) at its place before and after the move. One copy by
// the summed delta at render time equals the steps one after another wherever the steps' model
// says a pixel is good, so the frame is pixel-identical to a full redraw.
//
// The frame buffer is the one persistent canvas the window renders into; a display with two
// scanout buffers gets the copied area in the returned damage, so each buffer copies it as it
// copies any other damage (see Platform's DamageTracker).

/// One scroll view's pending pixel move, summed over the steps since the last render.
struct ScrollCopy {
    weak var view: View?
    /// The scroll view's clip in window pixels when the steps were recorded.
    let area: PixelRect
    var dx: Int
    var dy: Int
}

extension Window {
    /// Records a move of `view`'s content from bounds origin `old` to `new` as a copy; false
    /// when it cannot be copied exactly (the caller then damages the view as usual): a view that
    /// is not opaque or does not clip, a translucent ancestor, a move by a fraction of a device
    /// pixel, another scroll view already copying this frame, or an overlay covering it all.
    func copyScroll(of view: View, from old: Point, to new: Point) -> Bool {
        guard view.clipsToBounds, let background = view.backgroundColor, background.alpha == 255,
              let geometry = deviceGeometry(of: view), !geometry.clip.isEmpty else { return false }
        let area = geometry.clip
        let fx = (old.x - new.x) * geometry.scale, fy = (old.y - new.y) * geometry.scale
        let rx = fx.rounded(), ry = fy.rounded()
        guard abs(fx - rx) < 1e-6, abs(fy - ry) < 1e-6, abs(rx) < 1e6, abs(ry) < 1e6 else { return false }
        if let pending = scrollCopy, pending.view !== view || pending.area != area { return false }
        let overlays = overlayRects(above: view, in: area)
        if overlays.contains(where: { $0.contains(area) }) { return false }
        let dx = Int(rx), dy = Int(ry)
        damage.shift(within: area, dx: dx, dy: dy)
        for strip in area.subtracting(area.offsetBy(dx: dx, dy: dy)) { damage.add(strip) }
        for overlay in overlays {
            damage.add(overlay)
            damage.add(overlay.offsetBy(dx: dx, dy: dy).intersection(area))
        }
        scrollCopy = ScrollCopy(view: view, area: area, dx: (scrollCopy?.dx ?? 0) + dx, dy: (scrollCopy?.dy ?? 0) + dy)
        return true
    }

    /// Makes the pending copy in `canvas`'s bitmap before the damage is drawn; returns the
    /// area that changed by it. Without the previous frame in that bitmap (first render, another
    /// bitmap) or when the scroll view moved or changed since, the area is redrawn instead.
    func performScrollCopy(on canvas: Canvas) -> PixelRect? {
        guard let copy = scrollCopy else { return nil }
        scrollCopy = nil
        guard let view = copy.view, canvas.target === lastRenderTarget,
              deviceGeometry(of: view)?.clip == copy.area else {
            damage.add(copy.area)
            return nil
        }
        guard copy.dx != 0 || copy.dy != 0, !damage.covers(copy.area) else { return nil }
        canvas.target.shiftPixels(in: copy.area, dx: copy.dx, dy: copy.dy)
        copiedFrameCount += 1
        return copy.area
    }

    /// Where `view` draws in window pixels (its clip, cut by every clipping ancestor, computed
    /// as `render` computes it) and its device pixels per point; nil when it is not in this
    /// window or it or an ancestor is hidden or translucent.
    func deviceGeometry(of view: View) -> (clip: PixelRect, scale: Double)? {
        var chain: [View] = []
        var current: View? = view
        while let v = current, v !== self {
            chain.append(v)
            current = v.superview
        }
        guard current === self else { return nil }
        var origin = position + transform.translation
        var scale = transform.scale
        var clip = damage.bounds
        var parent: View = self
        for v in [self] + chain.reversed() {
            if v !== self {
                origin = origin + (v.frame.origin - parent.bounds.origin) * scale
                scale *= v.transform.scale
            }
            guard !v.isHidden, v.alpha >= 1 else { return nil }
            if v.clipsToBounds {
                clip = clip.intersection(PixelRect(snapping: Rect(origin: origin, size: v.bounds.size * scale)))
            }
            parent = v
        }
        return (clip, scale)
    }

    /// What is drawn above `view`'s content inside `area` without moving with it: the
    /// foreground of the view and its ancestors, and every later sibling of the view and of its
    /// ancestors.
    func overlayRects(above view: View, in area: PixelRect) -> [PixelRect] {
        var rects: [PixelRect] = []
        func add(_ rect: Rect?) {
            guard let rect else { return }
            let r = PixelRect(covering: rect).intersection(area)
            if !r.isEmpty { rects.append(r) }
        }
        var current = view
        while true {
            for r in current.foregroundRects { add(current.visibleRectInWindow(r)) }
            guard let parent = current.superview else { break }
            if let index = parent.subviews.firstIndex(where: { $0 === current }) {
                for sibling in parent.subviews[(index + 1)...] where !sibling.isHidden {
                    add(sibling.visibleRectInWindow(sibling.drawingExtent()))
                }
            }
            current = parent
        }
        return rects
    }
}
