import SystemAccess
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A plain OS thread. Decoding and scanning block for tens of milliseconds at a time, so they run
/// on their own threads instead of Swift concurrency's cooperative pool, which a long blocking
/// call would starve.
public final class WorkerThread: @unchecked Sendable {
    private var thread = pthread_t()
    private var joined = false

    private final class Start {
        let name: String
        let body: () -> Void
        init(name: String, body: @escaping () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Starts `body` on a new thread named `name` (at most 15 bytes show in `top`).
    public init(name: String, _ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        let result = pthread_create(&thread, nil, { argument in
            let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
            WorkerThread.nameCurrentThread(start.name)
            start.body()
            return nil
        }, start)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    /// Runs `body` on a new thread that nobody waits for: its resources go when it ends. For
    /// work whose result is posted back (opening or closing a clip player), not for work that
    /// must have finished before something else is freed.
    public static func detached(name: String, _ body: @escaping @Sendable () -> Void) {
        let worker = WorkerThread(name: name, body)
        worker.joined = true
        pthread_detach(worker.thread)
    }

    /// Waits for the thread to finish. Call at most once, never from the thread itself.
    public func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }

    /// pthread_setname_np needs _GNU_SOURCE, which Glibc's module does not define; writing the
    /// thread's comm file is the same thing.
    private static func nameCurrentThread(_ name: String) {
        guard let comm = try? FileDescriptor.openFile("/proc/thread-self/comm", .writeOnly) else { return }
        try? comm.writeAll(Array(name.utf8.prefix(15)))
        comm.closeQuietly()
    }

    /// Threads the machine can run at once.
    public static var processorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
