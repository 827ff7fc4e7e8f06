/// A running animation; cancel it to stop where it is.
public final class Animation {
    fileprivate var taskID: Int?
    fileprivate weak var scheduler: Scheduler?
    fileprivate var completion: ((Bool) -> Void)?
    public private(set) var isFinished = false

    fileprivate init() {}

    /// Stops the animation without jumping to its end; the completion gets `false`.
    public func cancel() {
        guard !isFinished else { return }
        if let taskID { scheduler?.removeFrameTask(taskID) }
        finish(completed: false)
    }

    fileprivate func finish(completed: Bool) {
        isFinished = true
        let done = completion
        completion = nil
        done?(completed)
    }
}

/// Drives values over time on a `Scheduler`'s frame clock: timed curves and springs.
public struct Animator {
    public let scheduler: Scheduler

    public init(scheduler: Scheduler) {
        self.scheduler = scheduler
    }

    /// Calls `update` once per frame with eased progress 0…1 over `duration` seconds; the last
    /// call is exactly 1. A zero duration updates with 1 at once.
    @discardableResult
    public func animate(duration: Double, easing: Easing = .easeInOut,
                        update: @escaping (Double) -> Void,
                        completion: ((Bool) -> Void)? = nil) -> Animation {
        let animation = Animation()
        animation.completion = completion
        guard duration > 0 else {
            update(1)
            animation.finish(completed: true)
            return animation
        }
        let start = scheduler.now
        animation.scheduler = scheduler
        // The task holds the animation until it finishes, so callers may drop the handle.
        animation.taskID = scheduler.addFrameTask { now in
            let elapsed = now - start
            let progress = elapsed >= duration - Scheduler.tolerance ? 1 : elapsed / duration
            update(easing(progress))
            if progress >= 1 {
                animation.finish(completed: true)
                return false
            }
            return true
        }
        return animation
    }

    /// Moves a value from `from` to `to` along `spring`, starting at `velocity` (units/s), until
    /// it settles; the last update is exactly `to`.
    @discardableResult
    public func animate(spring: Spring, from: Double, to: Double, velocity: Double = 0,
                        threshold: Double = Spring.restThreshold,
                        update: @escaping (Double) -> Void,
                        completion: ((Bool) -> Void)? = nil) -> Animation {
        let animation = Animation()
        animation.completion = completion
        let start = scheduler.now
        animation.scheduler = scheduler
        animation.taskID = scheduler.addFrameTask { now in
            let s = spring.state(at: now - start, displacement: from - to, velocity: velocity)
            if spring.isSettled(displacement: s.displacement, velocity: s.velocity, threshold: threshold) {
                update(to)
                animation.finish(completed: true)
                return false
            }
            update(to + s.displacement)
            return true
        }
        return animation
    }
}
