import Basics
import SystemPackage

/// Whether the kiosk's writes reach its storage: one value for the whole process, fed by every
/// writer (state files through `AtomicFile`, the thumbnail cache, uploads). A picture frame's SD
/// card or a dm-flakey device fails writes for a while (EIO), fills up (ENOSPC) or is remounted
/// read-only by ext4 after a journal abort (EROFS); the owner should hear of it once, not once
/// per write, and hear again when it is over. Other errors (a missing folder, EACCES) are about
/// one path, not the storage, and are left to their writer.
///
/// The first failure is reported (`Change.failing`), later ones are only counted; the first
/// successful write after them reports `Change.recovered` and clears the status. Reports go to
/// `observer` outside the lock (the app logs them; SystemAccess has no logger).
public final class StorageHealth: Sendable {
    /// Storage is failing: since when, where first, how often.
    public struct Failing: Equatable, Sendable {
        /// The folder of the first failed write (a path names a person's photo; the folder does not).
        public var folder: String
        public var firstErrno: Errno
        public var lastErrno: Errno
        public var failedWrites: Int
        /// Wall clock of the first failure, seconds since the epoch: for people, not for timing.
        public var sinceWallSeconds: Int64
        /// Monotonic clock of the first failure: how long it lasted.
        public var sinceMonotonic: Double

        /// The file system refuses writes (EROFS). With a journal, ext4 aborts it on the first
        /// failed commit and refuses every write after, even once the device works again (and
        /// /proc/mounts still says rw): only a fresh mount, i.e. the next boot, brings writes
        /// back. Measured by the `storage` e2e stage; docs/failing-storage.md.
        public var isReadOnly: Bool { lastErrno == .readOnlyFileSystem }

        /// "storage failing since 2026-11-28 10:20:03 UTC: Input/output error in /var/lib/photokiosk (3 failed writes)"
        public var summary: String {
            let what = isReadOnly ? "storage read-only" : "storage failing"
            return "\(what) since \(StorageHealth.utcText(sinceWallSeconds)): \(StorageHealth.errnoText(lastErrno)) in \(folder) "
                + "(\(failedWrites) failed write\(failedWrites == 1 ? "" : "s"))"
        }
    }

    public enum Change: Sendable, Equatable {
        /// The first failed write after a healthy time.
        case failing(Failing)
        /// The first successful write after failures; `seconds` they lasted (monotonic).
        case recovered(Failing, seconds: Double)
    }

    public struct Clocks: Sendable {
        public var monotonicSeconds: @Sendable () -> Double
        public var wallSeconds: @Sendable () -> Int64
        public init(monotonicSeconds: @escaping @Sendable () -> Double, wallSeconds: @escaping @Sendable () -> Int64) {
            self.monotonicSeconds = monotonicSeconds
            self.wallSeconds = wallSeconds
        }
        public static let system = Clocks(monotonicSeconds: SystemClock.monotonicSeconds, wallSeconds: SystemClock.realtimeSeconds)
    }

    /// The process's storage: what the app's writers report to unless a test passes its own.
    public static let shared = StorageHealth()

    private struct State {
        var failing: Failing?
        var observer: (@Sendable (Change) -> Void)?
    }
    private let state = Locked(State())
    private let clocks: Clocks

    public init(clocks: Clocks = .system) {
        self.clocks = clocks
    }

    /// Where changes are reported (one at a time, in order, never for repeated failures).
    public func setObserver(_ observer: @escaping @Sendable (Change) -> Void) {
        state.withLock { $0.observer = observer }
    }

    /// Nil while writes work.
    public var failing: Failing? { state.withLock { $0.failing } }

    /// The errors that say the storage, not one path, is failing.
    public static func isStorageFailure(_ code: Errno) -> Bool {
        code == .ioError || code == .readOnlyFileSystem || code == .noSpace || code == .diskQuotaExceeded
    }

    /// A write to `path` failed with `code`. Returns true when it counts as a storage failure
    /// (the caller then need not log it: the first one is reported here).
    @discardableResult
    public func recordFailure(path: String, errno code: Errno) -> Bool {
        guard Self.isStorageFailure(code) else { return false }
        let (change, observer) = state.withLock { state -> (Change?, (@Sendable (Change) -> Void)?) in
            if var failing = state.failing {
                failing.failedWrites += 1
                failing.lastErrno = code
                // EROFS after EIO is news: the kernel gave up on the file system (phase B in
                // docs/failing-storage.md), and the status says "read-only" from now on.
                let becameReadOnly = code == .readOnlyFileSystem && state.failing?.lastErrno != .readOnlyFileSystem
                state.failing = failing
                return (becameReadOnly ? .failing(failing) : nil, state.observer)
            }
            let failing = Failing(folder: AtomicFile.directoryOf(path), firstErrno: code, lastErrno: code, failedWrites: 1,
                                  sinceWallSeconds: clocks.wallSeconds(), sinceMonotonic: clocks.monotonicSeconds())
            state.failing = failing
            return (.failing(failing), state.observer)
        }
        if let change { observer?(change) }
        return true
    }

    /// A write reached the storage (fsynced, renamed into place).
    public func recordSuccess() {
        let (change, observer) = state.withLock { state -> (Change?, (@Sendable (Change) -> Void)?) in
            guard let failing = state.failing else { return (nil, nil) }
            state.failing = nil
            return (.recovered(failing, seconds: max(0, clocks.monotonicSeconds() - failing.sinceMonotonic)), state.observer)
        }
        if let change { observer?(change) }
    }

    /// The log line for a change.
    public static func logLine(_ change: Change) -> String {
        switch change {
        case .failing(let failing):
            return "\(failing.summary); the kiosk keeps showing photos from memory, caches are not written, "
                + "state is saved again when writes work (later failures are counted, not logged)"
        case .recovered(let failing, let seconds):
            return "storage writes work again after \(Int(seconds.rounded())) s (\(failing.failedWrites) failed "
                + "write\(failing.failedWrites == 1 ? "" : "s") since \(utcText(failing.sinceWallSeconds)))"
        }
    }

    /// "Input/output error" (strerror's words) for EIO.
    static func errnoText(_ code: Errno) -> String {
        switch code {
        case .ioError: return "Input/output error"
        case .readOnlyFileSystem: return "Read-only file system"
        case .noSpace: return "No space left on device"
        case .diskQuotaExceeded: return "Disk quota exceeded"
        default: return code.description
        }
    }

    /// "2026-11-28 10:20:03 UTC".
    static func utcText(_ seconds: Int64) -> String {
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let inDay = Int(seconds - Int64(days) * 86_400)
        let date = CivilDate.date(daysSinceEpoch: days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(date.year)-\(two(date.month))-\(two(date.day)) \(two(inDay / 3600)):\(two(inDay / 60 % 60)):\(two(inDay % 60)) UTC"
    }
}
