import Basics
import Graphics
import Imaging

/// Builds photos' pyramids one at a time on one worker thread, in the order asked. Flicking
/// past several big photos used to start a thread per photo, all building side by side, each
/// holding a band per level and, for a progressive photo, its coefficients. A build whose page
/// went away before it started is dropped; one already running finishes (the next visit finds
/// it cached). Each build also waits its turn at the decode memory gate (PyramidBuilder).
public final class PyramidBuildQueue: @unchecked Sendable {
    /// The one queue: memory is the process's, so all tiled photos share it.
    public static let shared = PyramidBuildQueue()

    struct Job {
        let path: RawPath
        let pyramids: PyramidCache
        let cancelled: StopFlag
        let finished: @Sendable (Result<String, ImagingError>) -> Void
    }

    private let lock = ThreadMutex()
    private let wake = ThreadCondition()
    // Guarded by `lock`.
    private var jobs: [Job] = []
    private var worker: WorkerThread?
    private var started = 0
    private var dropped = 0

    private init() {}

    /// Queues a build of `path` into `pyramids`; `finished` runs on the worker thread (unless the
    /// job was dropped because `cancelled` was set before it started).
    func enqueue(_ job: Job) {
        lock.withLock {
            jobs.append(job)
            if worker == nil { worker = WorkerThread(name: "pk-pyramid") { [self] in self.run() } }
            wake.signal()
        }
    }

    /// Builds started and builds dropped before starting (tests, logs).
    public var counts: (started: Int, dropped: Int) { lock.withLock { (started, dropped) } }

    private func run() {
        while true {
            let job: Job = lock.withLock {
                while jobs.isEmpty { wake.wait(releasing: lock) }
                return jobs.removeFirst()
            }
            if job.cancelled.isSet {
                lock.withLock { dropped += 1 }
                continue
            }
            lock.withLock { started += 1 }
            let result: Result<String, ImagingError>
            do throws(ImagingError) { result = .success(try job.pyramids.build(for: job.path)) } catch { result = .failure(error) }
            job.finished(result)
        }
    }
}
