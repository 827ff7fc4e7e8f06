import Basics
import Graphics

/// Keeps decodes that need a lot of working memory from running at the same time.
///
/// A progressive JPEG holds every DCT coefficient of the image while it decodes (88 MB for a
/// 5120x2880 photo decoded at 1/2 for the screen); several loader workers each starting one would
/// add those up. Each decode reserves its estimate here first: reservations under `smallBytes`
/// pass straight through (baseline files and DC-only thumbnails keep flowing on the other
/// workers), larger ones wait until they fit in `budget` next to those already running. One
/// always runs when nothing else holds the gate, even if it is larger than the whole budget.
public final class DecodeMemoryGate: @unchecked Sendable {
    /// The gate every decode shares unless given another (memory is the process's).
    public static let shared = DecodeMemoryGate()

    /// Bytes large decodes may hold together; the app sizes it to the board (MemTotal).
    public var budget: Int {
        get { lock.withLock { currentBudget } }
        set {
            lock.withLock {
                currentBudget = newValue
                released.broadcast()
            }
        }
    }
    public let smallBytes: Int
    private let lock = ThreadMutex()
    private let released = ThreadCondition()  // signalled under `lock` when a reservation ends
    // Guarded by `lock`.
    private var currentBudget: Int
    private var reserved = 0
    private var holders = 0
    private var waiters = 0
    private var backgroundWaiters = 0
    private var mostHolders = 0

    public init(budget: Int = 64 << 20, smallBytes: Int = 8 << 20) {
        currentBudget = budget
        self.smallBytes = smallBytes
    }

    /// Runs `body` once `bytes` may be held; blocks the calling (worker) thread until then.
    ///
    /// `background`: work nobody is looking at (a pyramid build) also waits while any other
    /// reservation waits, so it never delays a decode the screen needs; once running it holds
    /// its bytes like any other.
    public func withReservation<T, E: Error>(_ bytes: Int, background: Bool = false, _ body: () throws(E) -> T) throws(E) -> T {
        guard bytes >= smallBytes else { return try body() }
        lock.withLock {
            if background {
                backgroundWaiters += 1
                while waiters > 0 || (holders > 0 && reserved + bytes > currentBudget) { released.wait(releasing: lock) }
                backgroundWaiters -= 1
            }
            waiters += background ? 0 : 1
            while holders > 0 && reserved + bytes > currentBudget { released.wait(releasing: lock) }
            waiters -= background ? 0 : 1
            reserved += bytes
            holders += 1
            mostHolders = max(mostHolders, holders)
        }
        defer {
            lock.withLock {
                reserved -= bytes
                holders -= 1
                released.broadcast()
            }
        }
        return try body()
    }

    /// Large decodes running now, waiting now, and the most that ever ran at once (tests, logs).
    public var runningCount: Int { lock.withLock { holders } }
    public var waitingCount: Int { lock.withLock { waiters } }
    /// Background reservations (pyramid builds) waiting now.
    public var backgroundWaitingCount: Int { lock.withLock { backgroundWaiters } }
    public var mostConcurrent: Int { lock.withLock { mostHolders } }
}
