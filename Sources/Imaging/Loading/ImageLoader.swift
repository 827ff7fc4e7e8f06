import Basics
import Graphics

/// Identifies one caller's interest in one image; pass it back to re-prioritise or withdraw.
public struct LoadTicket: Hashable, Sendable {
    public let id: UInt64
    public let key: ImageKey
}

/// Counters for logs and benchmarks.
public struct LoaderStatistics: Sendable, Equatable {
    /// Decodes that a worker started.
    public var decodesStarted = 0
    /// Jobs dropped because every requester withdrew before a worker took them.
    public var cancelledBeforeStart = 0
    /// Requests that joined a job already queued or running for the same key.
    public var mergedRequests = 0
    /// Requests answered from the memory cache without a decode.
    public var cacheHits = 0
}

/// Decodes images on a pool of worker threads, most urgent first, and hands results back through
/// the app's event loop.
///
/// - Urgency is a *distance* (to the viewport, in any unit): smaller loads first. Callers update it
///   as the grid scrolls with `update(_:distance:)` and withdraw it with `cancel(_:)`; a job whose
///   requesters have all withdrawn is dropped before a worker takes it. A job already decoding
///   runs to the end (libjpeg cannot be interrupted) and its bitmap still goes into the cache.
/// - Requests for the same key merge into one decode; every requester is told.
/// - Completions never run on a worker: each finished job is handed to `deliver`, which the app
///   binds to its event loop (post to the loop's eventfd, run there). A ticket cancelled before
///   the delivered block runs is not called.
/// - `pause()` stops workers from *starting* decodes (during a fast fling) until `resume()`.
///
/// Thread-safe; completions run wherever `deliver` runs them.
public final class ImageLoader: @unchecked Sendable {
    public typealias Delivery = @Sendable (@escaping @Sendable () -> Void) -> Void
    public typealias Completion = (ImageKey, Result<LoadedImage, any Error>) -> Void

    private let core: LoaderCore

    /// - Parameters:
    ///   - decoder: does the work on worker threads.
    ///   - cache: consulted before queueing and filled after each successful decode; optional.
    ///   - workerCount: threads in the pool; by default one less than the cores (at least one),
    ///     leaving a core to the event loop that draws.
    ///   - deliver: runs a block on the event loop thread.
    public init(decoder: any ImageSourceDecoder, cache: ImageCache? = nil,
                workerCount: Int = ImageLoader.defaultWorkerCount, deliver: @escaping Delivery) {
        core = LoaderCore(decoder: decoder, cache: cache, deliver: deliver)
        core.startWorkers(count: max(1, workerCount))
    }

    deinit {
        core.shutdown()
    }

    public static var defaultWorkerCount: Int { max(1, WorkerThread.processorCount - 1) }

    /// Asks for `key`; `completion` runs once, on the loop, unless the ticket is cancelled first.
    @discardableResult
    public func request(_ key: ImageKey, distance: Double,
                        completion: @escaping Completion) -> LoadTicket {
        core.request(key, distance: distance, completion: completion)
    }

    /// Moves a pending request forward or back in the queue.
    public func update(_ ticket: LoadTicket, distance: Double) {
        core.update(ticket, distance: distance)
    }

    /// Withdraws a request (its cell scrolled away). Its completion will not run.
    public func cancel(_ ticket: LoadTicket) {
        core.cancel(ticket)
    }

    /// Workers finish what they are decoding but start nothing new until `resume()`.
    public func pause() { core.setPaused(true) }
    public func resume() { core.setPaused(false) }

    /// Requests queued, not yet taken by a worker.
    public var pendingCount: Int { core.pendingCount }
    public var statistics: LoaderStatistics { core.statisticsSnapshot }

    /// Stops the workers after their current decode; queued requests are dropped without
    /// completions. Also happens on deinit.
    public func shutdown() { core.shutdown() }
}

/// The shared state workers and the public wrapper both hold, so that dropping the last
/// `ImageLoader` reference stops the pool (workers never retain the wrapper).
final class LoaderCore: @unchecked Sendable {
    final class Job: @unchecked Sendable {
        enum Phase { case queued, running, finished }
        let key: ImageKey
        var phase = Phase.queued
        var generation: UInt64 = 0
        var requesters: [UInt64: (distance: Double, completion: ImageLoader.Completion)] = [:]
        var result: Result<LoadedImage, any Error>?

        init(key: ImageKey) { self.key = key }

        var distance: Double { requesters.values.map(\.distance).min() ?? .infinity }

        /// NaN would break the heap's ordering; treat it as "as far as can be".
        static func sanitized(_ distance: Double) -> Double { distance.isNaN ? .infinity : distance }
    }

    private let decoder: any ImageSourceDecoder
    private let cache: ImageCache?
    private let deliver: ImageLoader.Delivery
    private let lock = ThreadMutex()
    private let workChanged = ThreadCondition()  // signalled under `lock`: work queued, unpaused, stopping
    // Everything below is guarded by `lock`.
    private var jobs: [ImageKey: Job] = [:]
    private var queue = LoadQueue()
    private var queuedCount = 0
    private var nextGeneration: UInt64 = 1
    private var nextTicket: UInt64 = 1
    private var paused = false
    private var stopping = false
    private var workers: [WorkerThread] = []
    private var statistics = LoaderStatistics()

    init(decoder: any ImageSourceDecoder, cache: ImageCache?, deliver: @escaping ImageLoader.Delivery) {
        self.decoder = decoder
        self.cache = cache
        self.deliver = deliver
    }

    func startWorkers(count: Int) {
        let started = (0..<count).map { index in
            WorkerThread(name: "pk-decode-\(index)") { [self] in runWorker() }
        }
        lock.withLock { workers = started }
    }

    func request(_ key: ImageKey, distance: Double,
                 completion: @escaping ImageLoader.Completion) -> LoadTicket {
        let distance = Job.sanitized(distance)
        let cached = cache?.bitmap(for: key)
        var deliverJob: Job?
        let ticket: LoadTicket = lock.withLock {
            let ticket = LoadTicket(id: nextTicket, key: key)
            nextTicket += 1
            if let job = jobs[key] {
                statistics.mergedRequests += 1
                let before = job.distance
                job.requesters[ticket.id] = (distance, completion)
                if job.phase == .queued, distance < before { requeue(job) }
            } else {
                let job = Job(key: key)
                job.requesters[ticket.id] = (distance, completion)
                jobs[key] = job
                if let cached {
                    // Answered through the loop like a decode, so callers see one code path.
                    statistics.cacheHits += 1
                    job.phase = .finished
                    job.result = .success(LoadedImage(bitmap: cached))
                    deliverJob = job
                } else {
                    queuedCount += 1
                    requeue(job)
                    workChanged.signal()
                }
            }
            return ticket
        }
        if let job = deliverJob { post(job) }
        return ticket
    }

    func update(_ ticket: LoadTicket, distance: Double) {
        let distance = Job.sanitized(distance)
        lock.withLock {
            guard let job = jobs[ticket.key], job.requesters[ticket.id] != nil else { return }
            let before = job.distance
            job.requesters[ticket.id]!.distance = distance
            if job.phase == .queued, job.distance != before { requeue(job) }
        }
    }

    func cancel(_ ticket: LoadTicket) {
        lock.withLock {
            guard let job = jobs[ticket.key], job.requesters.removeValue(forKey: ticket.id) != nil
            else { return }
            if job.requesters.isEmpty, job.phase == .queued {
                jobs[ticket.key] = nil
                queuedCount -= 1
                statistics.cancelledBeforeStart += 1
            } else if job.phase == .queued {
                requeue(job)
            }
        }
    }

    func setPaused(_ value: Bool) {
        lock.withLock {
            paused = value
            if !value { workChanged.broadcast() }
        }
    }

    var pendingCount: Int { lock.withLock { queuedCount } }
    var statisticsSnapshot: LoaderStatistics { lock.withLock { statistics } }

    func shutdown() {
        let threads: [WorkerThread] = lock.withLock {
            stopping = true
            workChanged.broadcast()
            defer { workers = [] }
            return workers
        }
        for thread in threads { thread.join() }
    }

    /// Pushes the job's current distance under a fresh generation; older entries become stale.
    /// Caller holds the lock.
    private func requeue(_ job: Job) {
        job.generation = nextGeneration
        nextGeneration += 1
        queue.push(.init(distance: job.distance, generation: job.generation, key: job.key))
        if queue.count > 64, queue.count > 4 * queuedCount {
            queue.compact(isCurrent: isCurrent)
        }
    }

    private func isCurrent(_ entry: LoadQueue.Entry) -> Bool {
        guard let job = jobs[entry.key] else { return false }
        return job.phase == .queued && job.generation == entry.generation
    }

    private func runWorker() {
        while let job = takeJob() {
            let result = Result { try decoder.decode(ImageRequest(key: job.key)) }
            if case .success(let image) = result { cache?.insert(image.bitmap, for: job.key) }
            let anyoneWaiting: Bool = lock.withLock {
                job.phase = .finished
                job.result = result
                if job.requesters.isEmpty, jobs[job.key] === job { jobs[job.key] = nil }
                return !job.requesters.isEmpty
            }
            if anyoneWaiting { post(job) }
        }
    }

    /// Blocks until there is a job to start (or the pool stops: nil).
    private func takeJob() -> Job? {
        lock.withLock {
            while true {
                if stopping { return nil }
                if !paused, let entry = queue.popMin(isCurrent: isCurrent) {
                    let job = jobs[entry.key]!
                    job.phase = .running
                    queuedCount -= 1
                    statistics.decodesStarted += 1
                    return job
                }
                workChanged.wait(releasing: lock)
            }
        }
    }

    private func post(_ job: Job) {
        deliver { [self] in complete(job) }
    }

    /// Runs on the loop: calls whoever still wants the result.
    private func complete(_ job: Job) {
        let (waiting, result): ([ImageLoader.Completion], Result<LoadedImage, any Error>?) = lock.withLock {
            if jobs[job.key] === job { jobs[job.key] = nil }
            let waiting = job.requesters.sorted { $0.key < $1.key }.map(\.value.completion)
            job.requesters = [:]
            return (waiting, job.result)
        }
        guard let result else { return }
        for completion in waiting { completion(job.key, result) }
    }
}
