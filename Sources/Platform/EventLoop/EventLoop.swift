import CLinux
import Glibc
import SystemAccess
import SystemPackage

/// The app's one thread: epoll over the DRM fd, the libinput fd, a timerfd for timers, an eventfd
/// for work posted by other threads, and a signalfd for SIGINT/SIGTERM. It sleeps in epoll_wait
/// with no timeout when nothing is scheduled, so an idle kiosk costs no wakeups at all.
///
/// Not thread-safe except through `mailbox` (and `post`, which forwards to it): its thread is the
/// one that creates it (`thread`), and every other entry point asserts that it is called there
/// (debug builds). Create the loop before starting worker threads: it blocks SIGINT/SIGTERM so
/// that only the signalfd sees them, and threads inherit that mask.
public final class EventLoop {
    public typealias Handler = () -> Void

    /// A handle for cancelling a timer.
    public struct TimerID: Hashable, Sendable {
        fileprivate let value: UInt64
        /// For other `EventLoopRegistry` loops (tests) to number their timers.
        public init(_ value: UInt64) { self.value = value }
    }

    private let epollFD: Int32
    private let timerFD: Int32
    private let signalFD: Int32
    public let mailbox: Mailbox
    private var watchers: [Int32: Handler] = [:]
    private var sockets: [Int32: (readable: Handler, writable: Handler)] = [:]
    private var timers = TimerHeap<Handler>()
    private var nextTimerID: UInt64 = 1
    private var armedDeadline: Double?
    private var deadlineTimer: TimerID?
    private var running = false
    /// epoll_wait's result buffer, kept from turn to turn (a nested `runOnce`, from inside a
    /// handler, uses one of its own).
    private var readyEvents = [epoll_event](repeating: epoll_event(), count: 16)
    private var dispatching = false

    /// The thread the loop belongs to: the one that created it.
    public let thread = LoopThread.current
    /// Runs on SIGINT or SIGTERM (the `signals` given to `init`). The default stops the loop so that `run()` returns and the
    /// caller's cleanup (restoring the console's CRTC) happens.
    public var signalHandler: ((Int32) -> Void)?
    /// Times epoll_wait returned with something to do; lets tests see that an idle loop sleeps.
    public private(set) var wakeups = 0

    /// - Parameter signals: signals delivered through the signalfd instead of their default
    ///   action (which would kill the process before cleanup). Empty: leave signals alone.
    public init(signals: [Int32] = [SIGINT, SIGTERM]) throws(PlatformError) {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw .failed("epoll_create1", errno: errno) }
        timerFD = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard timerFD >= 0 else { throw .failed("timerfd_create", errno: errno) }
        mailbox = try Mailbox(thread: thread)
        if !signals.isEmpty {
            var mask = sigset_t()
            sigemptyset(&mask)
            for signal in signals { sigaddset(&mask, signal) }
            let blocked = pthread_sigmask(SIG_BLOCK, &mask, nil)
            guard blocked == 0 else { throw .failed("pthread_sigmask", errno: blocked) }
            signalFD = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
            guard signalFD >= 0 else { throw .failed("signalfd", errno: errno) }
        } else {
            signalFD = -1
        }
        try add(fd: timerFD)
        try add(fd: mailbox.eventFD)
        if signalFD >= 0 { try add(fd: signalFD) }
    }

    deinit {
        close(timerFD)
        if signalFD >= 0 { close(signalFD) }
        close(epollFD)
    }

    /// Seconds on CLOCK_MONOTONIC, the clock deadlines and input timestamps use.
    public var now: Double { SystemClock.monotonicSeconds() }

    // MARK: File descriptors

    /// Calls `handler` on the loop thread whenever `descriptor` is readable (or hung up).
    public func watch(_ descriptor: FileDescriptor, _ handler: @escaping Handler) throws(PlatformError) {
        thread.assertCurrent("EventLoop.watch")
        let fd = descriptor.rawValue
        if watchers[fd] == nil { try add(fd: fd, events: EPOLLIN.rawValue) }
        watchers[fd] = handler
    }

    /// Calls `handler` when `fd` reports an exceptional condition (EPOLLPRI), the way the kernel
    /// signals a changed mount table on /proc/self/mountinfo.
    public func watchPriority(_ descriptor: FileDescriptor, _ handler: @escaping Handler) throws(PlatformError) {
        thread.assertCurrent("EventLoop.watchPriority")
        let fd = descriptor.rawValue
        if watchers[fd] == nil { try add(fd: fd, events: EPOLLPRI.rawValue) }
        watchers[fd] = handler
    }

    /// Stops watching `descriptor`. Call before closing it.
    public func unwatch(_ descriptor: FileDescriptor) {
        thread.assertCurrent("EventLoop.unwatch")
        let fd = descriptor.rawValue
        guard watchers.removeValue(forKey: fd) != nil || sockets.removeValue(forKey: fd) != nil else { return }
        // The descriptor may have been closed first (libmosquitto closes its socket on
        // disconnect), which already took it out of the set: then DEL finds nothing (EBADF,
        // ENOENT), or, when another thread has meanwhile reused the number for a regular file,
        // is refused (EPERM; seen in the unit tests). Anything else is this loop's own mistake.
        if epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil) != 0 {
            let error = errno
            assert(error == EBADF || error == ENOENT || error == EPERM, "epoll_ctl(DEL, \(fd)): errno \(error)")
        }
    }

    /// Watches a network socket: `readable` when it can be read (or hung up), and `writable`
    /// when it can be written while `setWantsWrite(fd, true)` (output is queued). Stop with
    /// `unwatch` before the socket is closed.
    public func watchSocket(_ descriptor: FileDescriptor, readable: @escaping Handler, writable: @escaping Handler) throws(PlatformError) {
        thread.assertCurrent("EventLoop.watchSocket")
        let fd = descriptor.rawValue
        if sockets[fd] == nil { try add(fd: fd, events: EPOLLIN.rawValue) }
        sockets[fd] = (readable, writable)
    }

    public func setWantsWrite(_ descriptor: FileDescriptor, _ wants: Bool) {
        thread.assertCurrent("EventLoop.setWantsWrite")
        let fd = descriptor.rawValue
        guard sockets[fd] != nil else { return }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | (wants ? EPOLLOUT.rawValue : 0)
        event.data.fd = fd
        // EBADF: the socket was closed before it was unwatched (it left the set then).
        if epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event) != 0 {
            let error = errno
            assert(error == EBADF || error == ENOENT, "epoll_ctl(MOD, \(fd)): errno \(error)")
        }
    }

    private func add(fd: Int32, events: UInt32 = EPOLLIN.rawValue) throws(PlatformError) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else {
            throw .failed("epoll_ctl(ADD, \(fd))", errno: errno)
        }
    }

    // MARK: Work from other threads

    /// Queues `work` to run on the loop thread. Callable from any thread (see `Mailbox`).
    public func post(_ work: @Sendable @escaping () -> Void) {
        mailbox.post(work)
    }

    // MARK: Timers

    /// Arms the one UI deadline: the loop wakes (and `runOnce` returns) when CLOCK_MONOTONIC
    /// reaches `seconds` (absolute, as from `now`), so the caller can run its next animation
    /// step. `nil` disarms it; a new value replaces the old one.
    public func setDeadline(_ seconds: Double?) {
        thread.assertCurrent("EventLoop.setDeadline")
        if let id = deadlineTimer { cancelTimer(id) }
        deadlineTimer = nil
        guard let seconds else { return }
        deadlineTimer = addTimer(at: seconds) { [unowned self] in self.deadlineTimer = nil }
    }

    /// Runs `handler` once at the absolute monotonic time `deadline`.
    @discardableResult
    public func addTimer(at deadline: Double, _ handler: @escaping Handler) -> TimerID {
        thread.assertCurrent("EventLoop.addTimer")
        let id = nextTimerID
        nextTimerID += 1
        timers.insert(id: id, deadline: deadline, handler: handler)
        rearm()
        return TimerID(id)
    }

    /// Runs `handler` once after `delay` seconds.
    @discardableResult
    public func addTimer(after delay: Double, _ handler: @escaping Handler) -> TimerID {
        addTimer(at: now + delay, handler)
    }

    public func cancelTimer(_ id: TimerID) {
        thread.assertCurrent("EventLoop.cancelTimer")
        if timers.cancel(id: id.value) { rearm() }
    }

    /// Timers pending (fired and cancelled ones are gone).
    public var pendingTimers: Int { timers.count }

    /// Points the timerfd at the earliest pending timer, or disarms it when there is none.
    private func rearm() {
        let earliest = timers.earliestDeadline
        guard earliest != armedDeadline else { return }
        var spec = itimerspec()
        if let earliest { spec.it_value = TimerDeadline.timespec(earliest) }
        // Fails only for arguments this code never passes (EINVAL) or a closed timerfd; a loop
        // whose timers cannot be armed would sleep through every deadline, so it stops here.
        guard timerfd_settime(timerFD, Int32(TFD_TIMER_ABSTIME), &spec, nil) == 0 else {
            preconditionFailure("timerfd_settime: errno \(errno)")
        }
        armedDeadline = earliest
    }

    private func fireDueTimers() {
        var expirations: UInt64 = 0
        // EAGAIN: re-armed since epoll saw it ready (a handler moved the deadline); nothing to read.
        if read(timerFD, &expirations, 8) < 0 && errno != EAGAIN {
            preconditionFailure("read(timerfd): errno \(errno)")
        }
        armedDeadline = nil
        let due = timers.popDue(at: now)
        rearm()
        for handler in due { handler() }
    }

    // MARK: Running

    /// Dispatches events until `stop()` is called (by a handler, or by SIGINT/SIGTERM).
    public func run() throws(PlatformError) {
        thread.assertCurrent("EventLoop.run")
        running = true
        while running { try runOnce(timeout: nil) }
    }

    /// Ends `run()` after the current dispatch.
    public func stop() {
        thread.assertCurrent("EventLoop.stop")
        running = false
    }

    /// Waits once for events (at most `timeout` seconds; `nil` waits indefinitely) and
    /// dispatches them. Returns the number of ready file descriptors.
    @discardableResult
    public func runOnce(timeout: Double?) throws(PlatformError) -> Int {
        thread.assertCurrent("EventLoop.runOnce")
        let nested = dispatching
        var events = nested ? [epoll_event](repeating: epoll_event(), count: 16) : readyEvents
        readyEvents = []   // the buffer is moved out while in use, so the wait writes it without a copy
        defer { if !nested { readyEvents = events } }
        let ms = timeout.map { Int32(max(0, ($0 * 1000).rounded(.up))) } ?? -1
        let n = epoll_wait(epollFD, &events, Int32(events.count), ms)
        if n < 0 {
            if errno == EINTR { return 0 }
            throw .failed("epoll_wait", errno: errno)
        }
        if n > 0 { wakeups += 1 }
        dispatching = true
        defer { dispatching = nested }
        for event in events.prefix(Int(n)) {
            let fd = event.data.fd
            if fd == timerFD {
                fireDueTimers()
            } else if fd == mailbox.eventFD {
                mailbox.drain()
            } else if fd == signalFD {
                handleSignal()
            } else if let handler = watchers[fd] {
                handler()
            } else if let socket = sockets[fd] {
                if event.events & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 { socket.readable() }
                // The read may have closed it.
                if event.events & EPOLLOUT.rawValue != 0, let still = sockets[fd] { still.writable() }
            }
        }
        return Int(n)
    }

    private func handleSignal() {
        var info = signalfd_siginfo()
        while read(signalFD, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            let signal = Int32(info.ssi_signo)
            if let signalHandler { signalHandler(signal) } else { stop() }
        }
    }
}
