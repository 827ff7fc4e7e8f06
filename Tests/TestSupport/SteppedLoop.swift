import Platform
import SystemPackage

/// An `EventLoopRegistry` turned by hand: watches are recorded, timers fire when the test
/// advances time, in deadline order (then in the order they were added).
public final class SteppedLoop: EventLoopRegistry {
    public var now = 0.0
    public private(set) var watched: [FileDescriptor: () -> Void] = [:]
    private var timers: [(id: UInt64, deadline: Double, handler: () -> Void)] = []
    private var nextID: UInt64 = 1

    public init() {}

    public func watch(_ descriptor: FileDescriptor, _ handler: @escaping () -> Void) throws(PlatformError) { watched[descriptor] = handler }
    public func unwatch(_ descriptor: FileDescriptor) { watched[descriptor] = nil }

    public func addTimer(after delay: Double, _ handler: @escaping () -> Void) -> EventLoop.TimerID {
        defer { nextID += 1 }
        timers.append((nextID, now + delay, handler))
        return EventLoop.TimerID(nextID)
    }

    public func cancelTimer(_ id: EventLoop.TimerID) {
        timers.removeAll { EventLoop.TimerID($0.id) == id }
    }

    public var pendingTimers: Int { timers.count }

    /// Moves time to `time`, firing every timer due by then.
    public func advance(to time: Double) {
        now = time
        while let next = timers.enumerated().filter({ $0.element.deadline <= time })
            .min(by: { ($0.element.deadline, $0.offset) < ($1.element.deadline, $1.offset) }) {
            timers.remove(at: next.offset)
            next.element.handler()
        }
    }
}
