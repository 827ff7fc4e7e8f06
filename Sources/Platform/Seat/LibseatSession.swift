import CSeat
import Glibc
import Logging
import SystemPackage

/// A seat opened through libseat (seatd or logind), loaded with dlopen at run time.
///
/// Devices opened through it need no root and no device groups; the seat manager takes them
/// away on a VT switch (disable_seat: users pause, we acknowledge) and gives them back
/// (enable_seat: users resume). Callbacks arrive from `dispatch`, on the loop thread once
/// `attach` has been called.
///
/// `@unchecked Sendable` only so the one process-wide seat can sit in `DeviceOpener.shared`'s
/// mutex; every method is called on the loop thread.
public final class LibseatSession: @unchecked Sendable {
    /// What a device user does when the seat is taken away and given back.
    struct Observer {
        let pause: () -> Void
        let resume: () -> Void
    }

    private var session: OpaquePointer?
    public private(set) var activity = SeatActivity()
    public private(set) var name = "?"
    private var deviceIDs: [Int32: Int32] = [:]
    private var observers: [Int: Observer] = [:]
    private var nextObserverID = 0
    private weak var loop: (any EventLoopRegistry)?
    private let log: Logger

    private init(logger: Logger) {
        log = logger
    }

    /// Loads `library` and opens a seat, waiting up to `enableTimeout` seconds for libseat to
    /// say the seat is ours. Throws the reason (missing library, no seatd/logind) as text.
    static func open(library: String, enableTimeout: Double = 2, logger: Logger) throws(SeatUnavailable) -> LibseatSession {
        let seat = LibseatSession(logger: logger)
        let me = Unmanaged.passUnretained(seat).toOpaque()
        var error = [CChar](repeating: 0, count: 512)
        let opened = cseat_open(library,
                                { user in LibseatSession.from(user).handle(.enable) },
                                { user in LibseatSession.from(user).handle(.disable) },
                                me, &error, error.count)
        guard let opened else {
            throw SeatUnavailable(reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        seat.session = opened
        seat.name = cseat_seat_name(opened).map { String(cString: $0) } ?? "?"
        // seatd answers the open with enable_seat right away; logind may take a moment.
        _ = cseat_dispatch(opened, 0)
        var waited = 0.0
        while !seat.activity.isEnabled && waited < enableTimeout {
            guard cseat_dispatch(opened, 100) >= 0 else { break }
            waited += 0.1
        }
        if !seat.activity.isEnabled {
            logger.notice("seat \(seat.name) is not active yet (another VT?): devices open once it is")
        }
        return seat
    }

    private static func from(_ user: UnsafeMutableRawPointer?) -> LibseatSession {
        Unmanaged<LibseatSession>.fromOpaque(user!).takeUnretainedValue()
    }

    /// Runs the actions the state machine asks for on an enable/disable event.
    private func handle(_ event: SeatActivity.Event) {
        let actions = activity.handle(event)
        log.debug("seat \(name): \(event) -> \(activity.state) \(actions)")
        for action in actions {
            switch action {
            case .pauseDevices:
                log.notice("seat \(name) disabled (VT switch away): drawing and input paused")
                for observer in observers.values { observer.pause() }
            case .resumeDevices:
                log.notice("seat \(name) enabled again: taking the screen and input back")
                for observer in observers.values { observer.resume() }
            case .acknowledgeDisable:
                if let session, cseat_disable_seat(session) < 0 {
                    log.warning("libseat_disable_seat failed")
                }
            }
        }
    }

    /// Watches libseat's fd on `loop` (once; later calls with the same loop do nothing).
    func attach(to loop: any EventLoopRegistry) throws(PlatformError) {
        guard self.loop == nil, let session else { return }
        self.loop = loop
        try loop.watch(FileDescriptor(rawValue: cseat_get_fd(session))) { [unowned self] in self.dispatch() }
        dispatch()
    }

    /// Delivers pending seat events. Called by the loop when libseat's fd is readable.
    func dispatch() {
        guard let session else { return }
        if cseat_dispatch(session, 0) < 0 {
            log.error("libseat_dispatch failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Registers what to do when the seat is disabled and enabled again; returns a token for
    /// `removeObserver`.
    func addObserver(pause: @escaping () -> Void, resume: @escaping () -> Void) -> Int {
        nextObserverID += 1
        observers[nextObserverID] = Observer(pause: pause, resume: resume)
        return nextObserverID
    }

    func removeObserver(_ id: Int) {
        observers[id] = nil
    }

    /// Opens `path` through the seat manager (it chooses the flags: read-write, non-blocking).
    func openDevice(_ path: String) throws(PlatformError) -> Int32 {
        guard let session else { throw .failed("libseat_open_device \(path) (seat closed)", errno: EBADF) }
        var fd: Int32 = -1
        let id = cseat_open_device(session, path, &fd)
        guard id >= 0 else { throw .failed("libseat_open_device \(path)", errno: -id) }
        deviceIDs[fd] = id
        return fd
    }

    /// Gives a device back to the seat and closes it. False when `fd` was not opened here.
    @discardableResult
    func closeDevice(_ fd: Int32) -> Bool {
        guard let id = deviceIDs.removeValue(forKey: fd) else { return false }
        if let session { _ = cseat_close_device(session, id) }
        _ = Glibc.close(fd)
        return true
    }

    public func close() {
        guard let session else { return }
        loop?.unwatch(FileDescriptor(rawValue: cseat_get_fd(session)))
        _ = activity.handle(.close)
        for (fd, id) in deviceIDs {
            _ = cseat_close_device(session, id)
            _ = Glibc.close(fd)
        }
        deviceIDs = [:]
        cseat_close(session)
        self.session = nil
    }

    deinit { close() }
}

/// Why libseat is not used: the library or a symbol is missing, or no seat could be opened.
struct SeatUnavailable: Error, Equatable {
    let reason: String
}
