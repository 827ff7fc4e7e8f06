import Glibc
import SystemAccess
import SystemPackage

/// The kernel's `FolderWatch`: an inotify instance.
public final class Inotify: FolderWatch {
    private let descriptor: FileDescriptor

    /// What every watch reports; IN_ONLYDIR: a path that is not a folder is refused.
    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE
                                     | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    public init() throws(SystemError) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SystemError("inotify_init1", errno: SystemError.lastErrno) }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { descriptor.closeQuietly() }

    public func attach(to loop: any EventLoopRegistry, onPending: @escaping () -> Void) throws(PlatformError) {
        try loop.watch(descriptor, onPending)
    }

    public func detach(from loop: any EventLoopRegistry) { loop.unwatch(descriptor) }

    public func addWatch(folder path: [UInt8]) throws(SystemError) -> Int32 {
        let watch = PathBytes.withCString(path) { inotify_add_watch(descriptor.rawValue, $0, Self.mask) }
        guard watch >= 0 else {
            throw SystemError("inotify_add_watch", path: FilePath(bytes: path), errno: SystemError.lastErrno)
        }
        return watch
    }

    public func removeWatch(_ watch: Int32) {
        inotify_rm_watch(descriptor.rawValue, watch)
    }

    public func readEvents() -> [FolderEvent] {
        var events: [FolderEvent] = []
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        // Non-blocking: EAGAIN ends the loop once the queue is empty (EINTR is retried inside).
        while let count = try? descriptor.read(into: buffer), count > 0 {
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len, then the NUL-padded name.
            while offset + 16 <= count {
                let watch = buffer.load(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                let cookie = buffer.load(fromByteOffset: offset + 8, as: UInt32.self)
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                let name = UnsafeRawBufferPointer(rebasing: buffer[(offset + 16)..<(offset + 16 + length)])
                events.append(FolderEvent(watch: watch, kinds: FolderEventKinds(rawValue: mask), cookie: cookie,
                                          name: Array(name.prefix { $0 != 0 })))
                offset += 16 + length
            }
        }
        return events
    }
}
