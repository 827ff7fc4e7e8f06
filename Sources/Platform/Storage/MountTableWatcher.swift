import Glibc

/// Tells the app when something is mounted or unmounted (a USB stick of photos plugged in or
/// pulled), without polling: the kernel flags /proc/self/mountinfo with EPOLLPRI on every change
/// of the mount table, once per change, so an idle kiosk still sleeps.
public final class MountTableWatcher {
    private let fd: Int32
    private weak var loop: EventLoop?

    /// Opens the mount table; nil where /proc is not mounted.
    public init?(path: String = "/proc/self/mountinfo") {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { return nil }
    }

    deinit {
        loop?.unwatch(fd)
        close(fd)
    }

    /// Calls `onChange` on the loop thread after each change of the mount table.
    public func attach(to loop: EventLoop, onChange: @escaping () -> Void) throws(PlatformError) {
        self.loop = loop
        try loop.watchPriority(fd) { onChange() }
    }
}
