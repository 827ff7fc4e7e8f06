import Graphics
import Platform
import Widgets

/// A finger held still in a corner of the screen opens the frame's info screen, as a TV's
/// hidden menu: nothing on screen advertises it, a child's tap does not trigger it, and whoever
/// stands at the frame can always reach it. It watches the raw touches before the view tree and
/// takes the finger away from the views (a cancel) when it fires.
final class CornerHold {
    /// Seconds the finger must stay.
    static let duration = 2.0
    /// The corner's square, in chrome points.
    static let zonePoints = 56.0
    /// How far the finger may wander, in chrome points.
    static let slopPoints = 12.0

    private let loop: EventLoop
    /// Where the corners are, and how big a point is.
    var screen: () -> (size: Size, metrics: ChromeMetrics) = { (Size(width: 0, height: 0), ChromeMetrics()) }
    /// Runs when a hold completes; `cancel` is the touch event that ends the finger's touch for
    /// the views.
    var onHold: (_ cancel: [InputEvent]) -> Void = { _ in }

    private var candidate: (slot: Int, start: Point, last: Point)?
    private var timer: EventLoop.TimerID?
    /// A finger whose hold fired: its later events are not the views' any more.
    private var swallowedSlot: Int?
    private var fingersDown: Set<Int> = []

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// Looks at one input event; false when the event must not reach the views.
    func observe(_ event: InputEvent) -> Bool {
        guard case .touch(let slot, let phase, let location, _) = event else {
            if case .frame = event, swallowedSlot != nil, fingersDown.isEmpty { swallowedSlot = nil; return false }
            return true
        }
        switch phase {
        case .down:
            fingersDown.insert(slot)
            if fingersDown.count == 1, isInCorner(location) {
                candidate = (slot, location, location)
                arm()
            } else {
                abandon()
            }
        case .motion:
            if let c = candidate, c.slot == slot {
                candidate?.last = location
                let slop = screen().metrics.pixels(Self.slopPoints)
                if abs(location.x - c.start.x) > slop || abs(location.y - c.start.y) > slop { abandon() }
            }
        case .up, .cancel:
            fingersDown.remove(slot)
            if candidate?.slot == slot { abandon() }
            if swallowedSlot == slot { return false }
        }
        return swallowedSlot != slot
    }

    private func isInCorner(_ point: Point) -> Bool {
        let (size, metrics) = screen()
        let zone = metrics.pixels(Self.zonePoints)
        let nearX = point.x < zone || point.x > size.width - zone
        let nearY = point.y < zone || point.y > size.height - zone
        return nearX && nearY
    }

    private func arm() {
        if let timer { loop.cancelTimer(timer) }
        timer = loop.addTimer(after: Self.duration) { [weak self] in
            guard let self, let c = self.candidate else { return }
            self.timer = nil
            self.candidate = nil
            self.swallowedSlot = c.slot
            let now = self.loop.now
            self.onHold([.touch(slot: c.slot, phase: .cancel, location: c.last, time: now), .frame(time: now)])
        }
    }

    private func abandon() {
        candidate = nil
        if let timer { loop.cancelTimer(timer) }
        timer = nil
    }
}
