import Graphics

// Coordinate conversion. A point p of the bounds lands at frame.origin + (p − bounds.origin)·scale
// in the superview; nil as the other view means window (root) coordinates.

extension View {
    func convertToSuperview(_ p: Point) -> Point {
        frame.origin + (p - bounds.origin) * transform.scale
    }

    func convertFromSuperview(_ p: Point) -> Point {
        bounds.origin + (p - frame.origin) * (1 / transform.scale)
    }

    /// Accumulated scale from this view's points to root (screen) pixels.
    public var scaleInWindow: Double {
        var s = transform.scale
        var v = superview
        while let view = v {
            s *= view.transform.scale
            v = view.superview
        }
        return s
    }

    private func convertToRoot(_ p: Point) -> Point {
        var point = p
        var view: View = self
        while let parent = view.superview {
            point = view.convertToSuperview(point)
            view = parent
        }
        return point
    }

    private func convertFromRoot(_ p: Point) -> Point {
        var chain: [View] = []
        var view: View = self
        while let parent = view.superview {
            chain.append(view)
            view = parent
        }
        var point = p
        for v in chain.reversed() { point = v.convertFromSuperview(point) }
        return point
    }

    /// `point` in this view's bounds coordinates, expressed in `view`'s (window if nil).
    public func convert(_ point: Point, to view: View?) -> Point {
        let root = convertToRoot(point)
        return view?.convertFromRoot(root) ?? root
    }

    /// `point` in `view`'s bounds coordinates (window if nil), expressed in this view's.
    public func convert(_ point: Point, from view: View?) -> Point {
        let root = view?.convertToRoot(point) ?? point
        return convertFromRoot(root)
    }

    public func convert(_ rect: Rect, to view: View?) -> Rect {
        let a = convert(rect.origin, to: view)
        let b = convert(Point(x: rect.maxX, y: rect.maxY), to: view)
        return Rect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
    }

    public func convert(_ rect: Rect, from view: View?) -> Rect {
        let a = convert(rect.origin, from: view)
        let b = convert(Point(x: rect.maxX, y: rect.maxY), from: view)
        return Rect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
    }
}
