import Graphics

// Zooming: the `viewForZooming` is scaled through its transform; `contentSize` follows its
// scaled size. A pinch keeps the content point under the fingers' centroid; past the limits it
// rubber-bands and springs back (bouncesZoom). Animated zooms interpolate the visible rectangle
// in content coordinates, so the motion looks like a straight camera move.

extension ScrollView {
    public var zoomScale: Double {
        get { viewForZooming?.transform.scale ?? 1 }
        set { setZoomScale(newValue, animated: false) }
    }

    /// The default `setZoomScale` behaviour.
    public func performSetZoomScale(_ scale: Double, animated: Bool) {
        guard let zoomView = viewForZooming else { return }
        let s = min(max(scale, minimumZoomScale), maximumZoomScale)
        let centre = Point(x: bounds.width / 2, y: bounds.height / 2)
        let anchor = zoomView.convert(bounds.origin + centre, from: self)
        zoom(to: s, showing: anchor, at: centre, animated: animated, spring: false)
    }

    /// Zooms so that `rect` (in the zoom view's coordinates) fills the view, centred.
    public func zoom(to rect: Rect, animated: Bool) {
        guard viewForZooming != nil, !rect.isEmpty else { return }
        let fit = min(bounds.width / rect.width, bounds.height / rect.height)
        let s = min(max(fit, minimumZoomScale), maximumZoomScale)
        zoom(to: s, showing: rect.center, at: Point(x: bounds.width / 2, y: bounds.height / 2),
             animated: animated, spring: false)
    }

    /// Changes the scale without moving the offset or telling the delegate: for a view that
    /// re-bases its zoom (resolution snapping swaps the content's size at the same moment).
    public func setZoomScaleInPlace(_ scale: Double) {
        guard let zoomView = viewForZooming else { return }
        zoomView.transform.scale = scale
        contentSize = zoomView.bounds.size * scale
        centerZoomView()
    }

    /// Sets the zoom view's scale, resizes the content and keeps it centred when small.
    func applyZoomScale(_ scale: Double) {
        guard let zoomView = viewForZooming else { return }
        zoomView.transform.scale = scale
        contentSize = zoomView.bounds.size * scale
        centerZoomView()
        delegate?.scrollViewDidZoom(self)
    }

    /// Where the zoom view's origin sits in content coordinates at `scale`.
    func zoomOrigin(scale: Double) -> Point {
        guard let zoomView = viewForZooming, centersContentWhenSmaller else { return .zero }
        let size = zoomView.bounds.size * scale
        let w = bounds.width - contentInset.left - contentInset.right
        let h = bounds.height - contentInset.top - contentInset.bottom
        return Point(x: max(0, (w - size.width) / 2), y: max(0, (h - size.height) / 2))
    }

    func centerZoomView() {
        guard let zoomView = viewForZooming else { return }
        let origin = zoomOrigin(scale: zoomView.transform.scale)
        if zoomView.position != origin { zoomView.position = origin }
    }

    /// The offset that shows content point `anchor` (zoom view coordinates) at `point` of the
    /// visible area (relative to the bounds origin) at `scale`.
    func offset(showing anchor: Point, at point: Point, scale: Double) -> Point {
        zoomOrigin(scale: scale) + anchor * scale - point
    }

    func contentSize(atScale scale: Double) -> Size {
        (viewForZooming?.bounds.size ?? .zero) * scale
    }

    /// Moves to `scale` with `anchor` at `point` (clamped), animated along a timed curve or a spring.
    func zoom(to scale: Double, showing anchor: Point, at point: Point, animated: Bool, spring: Bool) {
        stopMotion()
        let targetOffset = clampedOffset(offset(showing: anchor, at: point, scale: scale),
                                         contentSize: contentSize(atScale: scale))
        let startScale = zoomScale, startOffset = contentOffset
        guard let animator = window?.animator, animated || spring else {
            applyZoomScale(scale)
            contentOffset = targetOffset
            return
        }
        // Visible rectangle in zoom-view coordinates at both ends; interpolate it.
        let startOrigin = (startOffset - zoomOrigin(scale: startScale)) * (1 / startScale)
        let endOrigin = (targetOffset - zoomOrigin(scale: scale)) * (1 / scale)
        let startWidth = bounds.width / startScale, endWidth = bounds.width / scale
        let update: (Double) -> Void = { [weak self] p in
            guard let self else { return }
            let width = startWidth + (endWidth - startWidth) * p
            let s = p >= 1 ? scale : self.bounds.width / width
            let origin = startOrigin + (endOrigin - startOrigin) * p
            self.applyZoomScale(s)
            self.contentOffset = p >= 1 ? targetOffset : origin * s + self.zoomOrigin(scale: s)
        }
        let completion: (Bool) -> Void = { [weak self] finished in
            guard let self, finished else { return }
            self.zoomAnimation = nil
            self.isZoomBouncing = false
            self.fadeIndicators()
            self.delegate?.scrollViewDidEndZooming(self, atScale: self.zoomScale)
        }
        showIndicators()
        if spring {
            isZoomBouncing = true
            zoomAnimation = animator.animate(spring: .bounce, from: 0, to: 1, threshold: 0.001,
                                             update: update, completion: completion)
        } else {
            zoomAnimation = animator.animate(duration: 0.3, easing: .easeInOut, update: update, completion: completion)
        }
    }

    /// A pinch scale past the limits, rubber-banded (at most 2× beyond, approached slowly).
    func rubberBandedZoom(_ raw: Double) -> Double {
        let band = RubberBand(dimension: 1)
        if raw > maximumZoomScale {
            return bouncesZoom ? maximumZoomScale * (1 + band.distance(forOvershoot: raw / maximumZoomScale - 1)) : maximumZoomScale
        }
        if raw < minimumZoomScale {
            return bouncesZoom ? minimumZoomScale / (1 + band.distance(forOvershoot: minimumZoomScale / raw - 1)) : minimumZoomScale
        }
        return raw
    }

    func handlePinch() {
        let pinch = pinchGestureRecognizer
        guard viewForZooming != nil else { return }
        let centroid = pinch.location(in: nil)
        let visiblePoint = convert(centroid, from: nil) - bounds.origin
        switch pinch.state {
        case .began:
            stopMotion()
            isZooming = true
            zoomedDuringDrag = true
            zoomStartScale = zoomScale
            pinchStartScale = pinch.scale
            // Measured from the unbanded offset, so a pinch that starts while the content is
            // pulled past an edge does not jump on its first step.
            let raw = unbandedOffset(contentOffset)
            pinchAnchor = (raw + visiblePoint - zoomOrigin(scale: zoomScale)) * (1 / zoomScale)
            showIndicators()
            delegate?.scrollViewWillBeginZooming(self)
        case .changed:
            let s = rubberBandedZoom(zoomStartScale * pinch.scale / pinchStartScale)
            applyZoomScale(s)
            contentOffset = draggedOffset(offset(showing: pinchAnchor, at: visiblePoint, scale: s))
        case .ended, .cancelled:
            isZooming = false
            needsPanRebase = true
            let s = min(max(zoomScale, minimumZoomScale), maximumZoomScale)
            let target = clampedOffset(offset(showing: pinchAnchor, at: visiblePoint, scale: s),
                                       contentSize: contentSize(atScale: s))
            if abs(s - zoomScale) < 1e-9 && (target - contentOffset).length < 0.01 {
                fadeIndicators()
                delegate?.scrollViewDidEndZooming(self, atScale: zoomScale)
            } else {
                zoom(to: s, showing: pinchAnchor, at: visiblePoint, animated: true, spring: true)
            }
        default:
            break
        }
    }
}
