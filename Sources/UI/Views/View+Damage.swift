import Graphics

// Which window pixels a view change touches. Views report damage to their window; the window
// merges it into a few rectangles and redraws only those.

extension View {
    /// `rect` (bounds coordinates) in window coordinates, cut by every clipping ancestor; nil
    /// when nothing of it can show (hidden, transparent, outside, or not in a window).
    func visibleRectInWindow(_ rect: Rect) -> Rect? {
        var r = rect
        var view: View = self
        while true {
            if view.isHidden || view.alpha < 0.01 { return nil }
            if view.clipsToBounds || view.superview == nil { r = r.intersection(view.bounds) }
            if r.isEmpty { return nil }
            guard let parent = view.superview else { break }
            r = view.convertRect(toSuperview: r)
            view = parent
        }
        return r
    }

    private func convertRect(toSuperview r: Rect) -> Rect {
        let o = convertToSuperview(r.origin)
        return Rect(origin: o, size: r.size * transform.scale)
    }

    /// The area this view and (unless it clips) its subviews cover, in bounds coordinates.
    func drawingExtent() -> Rect {
        var extent = bounds
        guard !clipsToBounds else { return extent }
        for subview in subviews where !subview.isHidden {
            extent = extent.union(subview.convertRect(toSuperview: subview.drawingExtent()))
        }
        return extent
    }

    /// Damages everything the view shows now.
    func invalidateExtent() {
        guard let window, let r = visibleRectInWindow(drawingExtent()) else { return }
        window.addDamage(r)
    }
}
