import Graphics

/// Delivers one window's touches: hit testing, exclusive touch, gesture recognizers first and
/// then the hit view, with the hold-back (`delaysTouchesBegan`) and take-over
/// (`cancelsTouchesInView`) rules that make scroll views work (see ScrollView's
/// delaysContentTouches / canCancelContentTouches).
final class TouchRouter {
    unowned let window: Window
    private var touchesBySlot: [Int: Touch] = [:]
    /// Slots whose touch was refused (exclusive touch); their events are dropped until lift.
    private var ignoredSlots: Set<Int> = []
    private var nextTouchID = 0
    /// Recognizers with touches, pending recognitions or unfinished states, in first-touch order.
    private var active: [GestureRecognizer] = []
    private var isDispatching = false
    private var needsResolution = false

    init(window: Window) {
        self.window = window
    }

    var activeTouches: [Touch] { touchesBySlot.values.sorted { $0.id < $1.id } }

    // MARK: Dispatch

    /// Delivers one input frame. A slot that appears twice in a frame (down and up within one
    /// frame) splits it, so every phase reaches the recognizers.
    func dispatch(_ events: [TouchEvent]) {
        var chunk: [TouchEvent] = []
        for event in events {
            if chunk.contains(where: { $0.slot == event.slot }) {
                dispatchFrame(chunk)
                chunk.removeAll()
            }
            chunk.append(event)
        }
        if !chunk.isEmpty { dispatchFrame(chunk) }
    }

    private func dispatchFrame(_ events: [TouchEvent]) {
        isDispatching = true
        var changed: [Touch] = []
        for event in events {
            switch event.phase {
            case .began:
                if let stale = touchesBySlot[event.slot] {
                    // A slot began again without an end: the old touch is gone.
                    stale.phase = .cancelled
                    deliverToRecognizers([stale])
                    deliverToView(stale)
                    finish(stale)
                }
                ignoredSlots.remove(event.slot)
                guard let touch = beginTouch(event) else {
                    ignoredSlots.insert(event.slot)
                    continue
                }
                changed.append(touch)
            case .moved, .ended, .cancelled:
                if ignoredSlots.contains(event.slot) {
                    if event.phase != .moved { ignoredSlots.remove(event.slot) }
                    continue
                }
                guard let touch = touchesBySlot[event.slot] else { continue }
                touch.previousLocation = touch.location
                touch.location = event.location
                touch.timestamp = event.timestamp
                touch.phase = event.phase
                if !changed.contains(where: { $0 === touch }) { changed.append(touch) }
            }
        }
        deliverToRecognizers(changed)
        resolve()
        for touch in changed {
            if touch.phase == .began && touch.delivery == .live && isHeldBack(touch) { touch.delivery = .held }
            deliverToView(touch)
        }
        for touch in changed where touch.phase == .ended || touch.phase == .cancelled { finish(touch) }
        isDispatching = false
        resolve()
    }

    private func beginTouch(_ event: TouchEvent) -> Touch? {
        let hit = window.hitTest(window.convertFromSuperview(event.location))
        // Exclusive touch: while an exclusive view is touched no other view gets a touch, and an
        // exclusive view gets none while another view is touched (more fingers on itself are fine).
        let others = touchesBySlot.values.filter { $0.view !== hit }
        if others.contains(where: { $0.view?.isExclusiveTouch ?? false }) { return nil }
        if (hit?.isExclusiveTouch ?? false) && !others.isEmpty { return nil }
        nextTouchID += 1
        let touch = Touch(id: nextTouchID, event: event, view: hit)
        var view = hit
        while let v = view {
            for r in v.gestureRecognizers where r.isEnabled && (r.state == .possible || r.state == .began || r.state == .changed) {
                touch.recognizers.append(r)
                r.touches.append(touch)
                r.router = self
                if !active.contains(where: { $0 === r }) { active.append(r) }
            }
            view = v.superview
        }
        touchesBySlot[event.slot] = touch
        return touch
    }

    private func deliverToRecognizers(_ touches: [Touch]) {
        let phases: [TouchPhase] = [.began, .moved, .ended, .cancelled]
        for phase in phases {
            let group = touches.filter { $0.phase == phase }
            guard !group.isEmpty else { continue }
            for r in active where r.state != .failed && r.state != .ended && r.state != .cancelled {
                let mine = group.filter { t in r.touches.contains { $0 === t } }
                guard !mine.isEmpty else { continue }
                if phase == .ended || phase == .cancelled { r.lastLocation = r.location(in: nil) }
                switch phase {
                case .began: r.touchesBegan(mine)
                case .moved: r.touchesMoved(mine)
                case .ended: r.touchesEnded(mine)
                case .cancelled: r.touchesCancelled(mine)
                }
            }
        }
    }

    /// Sends the touch's current phase to its view, or holds it back, or drops it.
    private func deliverToView(_ touch: Touch) {
        switch touch.delivery {
        case .cancelled: return
        case .held: touch.heldPhases.append(touch.phase)
        case .live: send(touch.phase, of: touch)
        }
    }

    private func send(_ phase: TouchPhase, of touch: Touch) {
        guard let view = touch.view else { return }
        switch phase {
        case .began:
            touch.isTrackedByView = true
            view.touchesBegan([touch])
        case .moved:
            if touch.isTrackedByView { view.touchesMoved([touch]) }
        case .ended:
            if touch.isTrackedByView { touch.isTrackedByView = false; view.touchesEnded([touch]) }
        case .cancelled:
            if touch.isTrackedByView { touch.isTrackedByView = false; view.touchesCancelled([touch]) }
        }
    }

    private func finish(_ touch: Touch) {
        if touchesBySlot[touch.slot] === touch { touchesBySlot[touch.slot] = nil }
        for r in touch.recognizers { r.touches.removeAll { $0 === touch } }
    }

    /// Touches of recognizers that delay touches stay held while such a recognizer is undecided.
    private func isHeldBack(_ touch: Touch) -> Bool {
        touch.recognizers.contains { $0.delaysTouchesBegan && $0.state == .possible }
    }

    // MARK: Arbitration

    /// A recognizer changed state (called by `GestureRecognizer.apply`).
    func recognizer(_ r: GestureRecognizer, didChangeFrom wasPossible: Bool) {
        if wasPossible && (r.state == .began || r.state == .ended) {
            if r.cancelsTouchesInView {
                for touch in r.touches { takeOver(touch) }
            }
            // One recognizer per touch: the others sharing a touch give up.
            for other in active where other !== r && other.state == .possible && sharesTouch(r, other)
                && !r.canRecognizeSimultaneously(with: other) {
                other.pendingState = nil
                other.apply(.failed)
            }
        }
        scheduleResolution()
    }

    /// The view stops seeing the touch: cancelled if it was tracking, dropped if held.
    private func takeOver(_ touch: Touch) {
        if touch.isTrackedByView { send(.cancelled, of: touch) }
        touch.delivery = .cancelled
        touch.heldPhases.removeAll()
    }

    private func sharesTouch(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        a.touches.contains { t in b.touches.contains { $0 === t } }
    }

    func scheduleResolution() {
        needsResolution = true
        if !isDispatching { resolve() }
    }

    /// A required recognizer counts as failed when it failed, or when it is not involved in
    /// any gesture at all (nothing to wait for).
    static func hasFailed(_ r: GestureRecognizer) -> Bool {
        r.state == .failed || r.state == .cancelled
            || (r.state == .possible && r.pendingState == nil && r.touches.isEmpty && !r.isAwaitingMoreTouches)
    }

    /// Applies pending recognitions whose requirements are settled, releases held touches whose
    /// delaying recognizers failed, and resets recognizers that are done.
    func resolve() {
        guard !isResolving else { return }
        isResolving = true
        defer { isResolving = false }
        repeat {
            needsResolution = false
            for r in active where r.pendingState != nil {
                let required = r.failureRequirements.compactMap(\.value)
                if required.contains(where: { $0.state.isRecognized }) {
                    r.pendingState = nil
                    r.apply(.failed)
                } else if required.allSatisfy(Self.hasFailed) {
                    r.applyPending()
                }
            }
            for touch in touchesBySlot.values.sorted(by: { $0.id < $1.id }) where touch.delivery == .held && !isHeldBack(touch) {
                touch.delivery = .live
                let held = touch.heldPhases
                touch.heldPhases.removeAll()
                var sentMove = false
                for phase in held where phase != .moved || !sentMove {
                    if phase == .moved { sentMove = true }
                    send(phase, of: touch)
                }
            }
        } while needsResolution
        if !isDispatching {
            for r in active { r.resetIfFinished() }
            active.removeAll { $0.state == .possible && $0.pendingState == nil && $0.touches.isEmpty && !$0.isAwaitingMoreTouches }
        }
    }

    private var isResolving = false
}
