import Glibc
import SystemAccess
import SystemPackage

/// The kernel's mount table in /proc/self/mountinfo: read on request, and watched without
/// polling, since the kernel flags that file with EPOLLPRI on every change of the mount table,
/// once per change, so an idle kiosk still sleeps.
public final class SystemMountTable: MountTableSource {
    private let path: String
    private var watched: FileDescriptor?
    private weak var loop: EventLoop?

    public init(path: String = "/proc/self/mountinfo") {
        self.path = path
    }

    deinit {
        stopWatching()
    }

    public func currentMounts() -> MountTable? {
        guard let file = try? FileDescriptor.openFile(FilePath(path), .readOnly) else { return nil }
        defer { file.closeQuietly() }
        // A kernel-made file: its size says nothing, so it is read to its end (a few KB).
        guard let text = (try? file.readToEnd(limit: 16 << 20)) ?? nil else { return nil }
        return MountTable(mountInfo: text)
    }

    public func watchChanges(on loop: EventLoop, _ onChange: @escaping () -> Void) throws(PlatformError) -> Bool {
        stopWatching()
        guard let file = try? FileDescriptor.openFile(FilePath(path), .readOnly) else { return false }
        do {
            try loop.watchPriority(file) { onChange() }
        } catch {
            file.closeQuietly()
            throw error
        }
        watched = file
        self.loop = loop
        return true
    }

    private func stopWatching() {
        guard let watched else { return }
        loop?.unwatch(watched)
        watched.closeQuietly()
        self.watched = nil
    }
}
