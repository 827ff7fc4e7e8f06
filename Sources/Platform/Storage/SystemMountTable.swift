import Glibc

/// The kernel's mount table in /proc/self/mountinfo: read on request, and watched without
/// polling, since the kernel flags that file with EPOLLPRI on every change of the mount table,
/// once per change, so an idle kiosk still sleeps.
public final class SystemMountTable: MountTableSource {
    private let path: String
    private var watchedFD: Int32 = -1
    private weak var loop: EventLoop?

    public init(path: String = "/proc/self/mountinfo") {
        self.path = path
    }

    deinit {
        stopWatching()
    }

    public func currentMounts() -> MountTable? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            text += chunk[0..<n]
        }
        return MountTable(mountInfo: text)
    }

    public func watchChanges(on loop: EventLoop, _ onChange: @escaping () -> Void) throws(PlatformError) -> Bool {
        stopWatching()
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        do {
            try loop.watchPriority(fd) { onChange() }
        } catch {
            close(fd)
            throw error
        }
        watchedFD = fd
        self.loop = loop
        return true
    }

    private func stopWatching() {
        guard watchedFD >= 0 else { return }
        loop?.unwatch(watchedFD)
        close(watchedFD)
        watchedFD = -1
    }
}
