import SystemPackage

/// What a display, an input source or a seat needs from the event loop: descriptors watched for
/// reading, and one-shot timers. `EventLoop` is the real one; a test can drive its own, so
/// `Display.attach` and `InputSource.attach` are tested without epoll or a kernel device.
public protocol EventLoopRegistry: AnyObject {
    /// Calls `handler` on the loop thread whenever `descriptor` is readable.
    func watch(_ descriptor: FileDescriptor, _ handler: @escaping () -> Void) throws(PlatformError)
    func unwatch(_ descriptor: FileDescriptor)
    /// Runs `handler` once after `delay` seconds.
    @discardableResult
    func addTimer(after delay: Double, _ handler: @escaping () -> Void) -> EventLoop.TimerID
    func cancelTimer(_ id: EventLoop.TimerID)
}

extension EventLoop: EventLoopRegistry {}
