import Platform
@testable import PhotoKioskApp
import UI

/// Plays a TouchStorm through the whole app's input path (as libinput events), one loop turn a frame.
extension KioskApp {
    func play(_ storm: inout TouchStorm, frames: Int) throws {
        for _ in 0..<frames {
            let now = host.loop.now
            for event in storm.frame(now: now) {
                let phase: Platform.TouchPhase = switch event.phase {
                case .began: .down
                case .moved: .motion
                case .ended: .up
                case .cancelled: .cancel
                }
                handle(.touch(slot: event.slot, phase: phase, location: event.location, time: event.timestamp))
            }
            handle(.frame(time: now))
            _ = try host.loop.runOnce(timeout: 0)
        }
    }

    /// Lifts every finger the storm still holds down and ends the frame; returns the loop's time.
    @discardableResult
    func liftEveryFinger(of storm: inout TouchStorm) -> Double {
        let now = host.loop.now
        for event in storm.liftAll(now: now) {
            handle(.touch(slot: event.slot, phase: .up, location: event.location, time: now))
        }
        handle(.frame(time: now))
        return now
    }
}
