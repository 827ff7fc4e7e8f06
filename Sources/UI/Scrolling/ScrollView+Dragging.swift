import Graphics

// Dragging (1:1 with rubber band past the edges) and what happens on release: a fling that
// decelerates, a spring back from beyond an edge, or a snap to a page.

extension ScrollView {
    func panShouldBegin() -> Bool {
        guard isScrollEnabled else { return false }
        let pan = panGestureRecognizer
        // canCancelContentTouches off: content that is already tracking keeps the touch.
        if !canCancelContentTouches && pan.touches.contains(where: { $0.isTrackedByView && $0.view !== self }) {
            return false
        }
        // Leave a drag along an axis we cannot scroll to an outer scroll view (a photo page
        // at minimum zoom inside a paging view).
        let moved = pan.touches.reduce(Point.zero) { $0 + ($1.location - $1.startLocation) }
        let horizontal = bouncesHorizontally || canScrollHorizontally
        let vertical = bouncesVertically || canScrollVertically
        let isHorizontal = abs(moved.x) >= abs(moved.y)
        guard isHorizontal ? horizontal : vertical else { return false }
        // At the edge it is dragged towards, an inner view lets an enclosing scroll view that
        // can move that way take the drag (a zoomed photo at its edge pages, as PhotoScroller).
        if let outer = enclosingScrollView {
            let lo = minimumContentOffset, hi = maximumContentOffset
            if isHorizontal && outer.canScrollHorizontally {
                let atEdge = moved.x > 0 ? contentOffset.x <= lo.x + 0.5 : contentOffset.x >= hi.x - 0.5
                if atEdge { return false }
            } else if !isHorizontal && outer.canScrollVertically {
                let atEdge = moved.y > 0 ? contentOffset.y <= lo.y + 0.5 : contentOffset.y >= hi.y - 0.5
                if atEdge { return false }
            }
        }
        return true
    }

    /// The nearest scroll view this one is inside.
    var enclosingScrollView: ScrollView? {
        var view = superview
        while let v = view {
            if let scroll = v as? ScrollView { return scroll }
            view = v.superview
        }
        return nil
    }

    func handlePan() {
        let pan = panGestureRecognizer
        switch pan.state {
        case .began:
            stopMotion()
            isDragging = true
            zoomedDuringDrag = isZooming
            dragStartOffset = unbandedOffset(contentOffset)
            showIndicators()
            delegate?.scrollViewWillBeginDragging(self)
        case .changed:
            guard !isZooming, zoomAnimation == nil else { return }
            let translation = pan.translation(in: self)
            if needsPanRebase {
                dragStartOffset = contentOffset + translation
                needsPanRebase = false
            }
            contentOffset = pixelAligned(draggedOffset(dragStartOffset - translation))
        case .ended, .cancelled:
            isDragging = false
            needsPanRebase = false
            var velocity = pan.velocity(in: self) * -1
            if pan.state == .cancelled || zoomedDuringDrag || isZooming { velocity = .zero }
            // A drag that interrupted a zoom bounce must finish it, not only the offset.
            let willMove = zoomAnimation == nil && !isZooming && (bounceZoomBackIfNeeded() || release(velocity: velocity))
            delegate?.scrollViewDidEndDragging(self, willDecelerate: willMove)
            if !willMove { fadeIndicators() }
        default:
            break
        }
    }

    /// The offset shown for a finger-driven target: inside the range 1:1, beyond it rubber
    /// banded (or held at the edge when bouncing is off).
    func draggedOffset(_ target: Point) -> Point {
        let lo = minimumContentOffset, hi = maximumContentOffset
        func axis(_ value: Double, _ lo: Double, _ hi: Double, scrollable: Bool, bounce: Bool, viewport: Double) -> Double {
            if bounce { return RubberBand(dimension: viewport).clamp(value, to: lo...hi) }
            return scrollable ? min(max(value, lo), hi) : lo
        }
        return Point(x: axis(target.x, lo.x, hi.x, scrollable: canScrollHorizontally, bounce: bouncesHorizontally, viewport: bounds.width),
                     y: axis(target.y, lo.y, hi.y, scrollable: canScrollVertically, bounce: bouncesVertically, viewport: bounds.height))
    }

    /// The finger-driven target that `draggedOffset` shows as `offset` (past an edge, the
    /// rubber band undone), so catching a bouncing view does not make it jump.
    func unbandedOffset(_ offset: Point) -> Point {
        let lo = minimumContentOffset, hi = maximumContentOffset
        var raw = offset
        if bouncesHorizontally { raw.x = RubberBand(dimension: bounds.width).unclamp(offset.x, from: lo.x...hi.x) }
        if bouncesVertically { raw.y = RubberBand(dimension: bounds.height).unclamp(offset.y, from: lo.y...hi.y) }
        return raw
    }

    /// After the fingers on the view lift with no drag or pinch to release it (another finger
    /// stayed, or the touch went to content): never rest past an edge or outside the zoom
    /// limits. Resting between two pages is left to `settleAfterCatch` and the album.
    func settleAfterStop() {
        guard !isDragging, !isZooming, !isMoving, window != nil else { return }
        if bounceZoomBackIfNeeded() { return }
        guard clampedOffset(contentOffset) != contentOffset else { return }
        dragStartOffset = contentOffset
        release(velocity: .zero)
    }

    /// Animates the zoom back inside its limits (offset included); false when already inside.
    func bounceZoomBackIfNeeded() -> Bool {
        guard let zoomView = viewForZooming else { return false }
        let s = zoomView.transform.scale
        guard s < minimumZoomScale - 1e-9 || s > maximumZoomScale + 1e-9 else { return false }
        performSetZoomScale(s, animated: true)
        return true
    }

    /// Starts the motion after the fingers lift; false if the content is already at rest.
    @discardableResult
    func release(velocity: Point) -> Bool {
        var v = velocity
        if !canScrollHorizontally && !alwaysBounceHorizontal { v.x = 0 }
        if !canScrollVertically && !alwaysBounceVertical { v.y = 0 }
        let now = window?.scheduler.now ?? 0
        let offset = contentOffset
        let lo = minimumContentOffset, hi = maximumContentOffset
        guard isPagingEnabled else {
            let mx = AxisMotion(position: offset.x, velocity: v.x, time: now, range: lo.x...hi.x,
                                bounces: bouncesHorizontally, rate: decelerationRate)
            let my = AxisMotion(position: offset.y, velocity: v.y, time: now, range: lo.y...hi.y,
                                bounces: bouncesVertically, rate: decelerationRate)
            return run(mx, my)
        }
        let heading = caughtPageSnapTarget
        caughtPageSnapTarget = nil
        let x = pageMotion(offset: offset.x, velocity: v.x, start: dragStartOffset.x, heading: heading?.x,
                           page: bounds.width, extent: contentSize.width, range: lo.x...hi.x, time: now)
        let y = pageMotion(offset: offset.y, velocity: v.y, start: dragStartOffset.y, heading: heading?.y,
                           page: bounds.height, extent: contentSize.height, range: lo.y...hi.y, time: now)
        let moves = run(x.motion, y.motion)
        if moves { pageSnapTarget = Point(x: x.destination, y: y.destination) }
        return moves
    }

    /// A paging axis' spring to the page `PageSnap` picks, and that page's offset.
    private func pageMotion(offset: Double, velocity: Double, start: Double, heading: Double?, page: Double,
                            extent: Double, range: ClosedRange<Double>, time: Double) -> (motion: AxisMotion, destination: Double) {
        guard page > 0, range.upperBound > range.lowerBound else {
            let motion = AxisMotion(position: offset, velocity: 0, time: time, range: range, bounces: true, rate: decelerationRate)
            return (motion, min(max(offset, range.lowerBound), range.upperBound))
        }
        let count = Int((extent / page).rounded(.up))
        let target = PageSnap.targetPage(offset: offset, pageSize: page, velocity: velocity, dragStart: start,
                                         heading: heading.map { Int(($0 / page).rounded()) }, pageCount: count)
        let destination = min(max(Double(target) * page, range.lowerBound), range.upperBound)
        return (AxisMotion(springFrom: offset, to: destination, velocity: velocity, time: time), destination)
    }

    /// A touch stopped the moving content; a page snap it stopped stays the touch's reference.
    func catchMotion() {
        caughtPageSnapTarget = pageSnapTarget
        stopMotion()
    }

    /// The fingers that stopped the content lifted without a drag taking over: settle as after a
    /// still release, as UIKit does (a paging view finishes its snap instead of resting between
    /// pages, an overscrolled view springs back).
    func settleAfterCatch() {
        guard !isDragging, !isMoving, !isZooming, !isTracking else { return }
        dragStartOffset = unbandedOffset(contentOffset)
        if release(velocity: .zero) { showIndicators() } else { fadeIndicators() }
        caughtPageSnapTarget = nil
    }

    /// Steps the two axes every frame until both rest.
    private func run(_ mx: AxisMotion, _ my: AxisMotion) -> Bool {
        var motion = (x: mx, y: my)
        if motion.x.isResting && motion.y.isResting {
            let rest = Point(x: motion.x.position(at: 0), y: motion.y.position(at: 0))
            contentOffset = rest
            return false
        }
        guard let scheduler = window?.scheduler else {
            // Not on screen: no frames to animate, go straight to where it would stop.
            contentOffset = Point(x: motion.x.position(at: .infinity), y: motion.y.position(at: .infinity))
            return false
        }
        self.motion = motion
        isDecelerating = true
        motionTask = scheduler.addFrameTask { [weak self] now in
            guard let self, var m = self.motion else { return false }
            let offset = Point(x: m.x.position(at: now), y: m.y.position(at: now))
            self.motion = m
            self.contentOffset = self.pixelAligned(offset)
            guard m.x.isResting && m.y.isResting else { return true }
            // Come to rest on whole pixels, so 1:1 content draws as a plain copy, not resampled.
            self.contentOffset = self.clampedOffset(Point(x: offset.x.rounded(), y: offset.y.rounded()))
            self.motion = nil
            self.pageSnapTarget = nil
            self.motionTask = nil
            self.isDecelerating = false
            self.fadeIndicators()
            self.delegate?.scrollViewDidEndDecelerating(self)
            return false
        }
        return true
    }
}
