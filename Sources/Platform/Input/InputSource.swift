/// Where input events come from, shaped like `Display`: made with the handler its events go to,
/// started by `attach(to:)` on the loop, stopped by `close()`. `LibinputSource` reads the
/// kernel's devices; `ScriptedInputSource` plays a fixed list on the loop's timers (tests); the
/// app's `ReplayInputSource` plays a touch recording in real time. (A fast replay on a virtual
/// clock is not a source: the app's `Replayer` moves that clock itself.)
public protocol InputSource: AnyObject {
    /// Starts delivering events; the handler runs on the loop thread.
    func attach(to loop: any EventLoopRegistry) throws(PlatformError)
    /// Stops delivering events. Safe to call more than once.
    func close()
    /// The screen's size or rotation changed (another output was connected): positions are
    /// mapped onto the new one from now on.
    func screenChanged(to mapping: ScreenMapping)
}

extension LibinputSource: InputSource {
    public func screenChanged(to mapping: ScreenMapping) { self.mapping = mapping }
}

/// An `InputSource` that plays a fixed list of events, each `delay` seconds after `attach`,
/// through the loop's timers: no device, no kernel.
public final class ScriptedInputSource: InputSource {
    /// One event and when it comes, in seconds after `attach`.
    public struct Step: Sendable, Equatable {
        public var delay: Double
        public var event: InputEvent

        public init(after delay: Double, _ event: InputEvent) {
            self.delay = delay
            self.event = event
        }
    }

    public let steps: [Step]
    private let handler: (InputEvent) -> Void
    private weak var loop: (any EventLoopRegistry)?
    private var pending: [EventLoop.TimerID] = []

    public init(steps: [Step], handler: @escaping (InputEvent) -> Void) {
        self.steps = steps
        self.handler = handler
    }

    deinit { close() }

    public func attach(to loop: any EventLoopRegistry) throws(PlatformError) {
        close()
        self.loop = loop
        // Stable order for equal delays: each step's timer is added after the one before it.
        pending = steps.map { step in
            loop.addTimer(after: step.delay) { [weak self] in self?.handler(step.event) }
        }
    }

    public func close() {
        for id in pending { loop?.cancelTimer(id) }
        pending = []
    }

    /// The script's positions are screen points already: nothing to map.
    public func screenChanged(to mapping: ScreenMapping) {}
}
