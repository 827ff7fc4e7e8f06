import Basics
import Graphics

/// Decoded bitmaps in memory under one byte budget, least recently used evicted first.
///
/// Policy:
/// - The budget is a hard cap: `totalBytes <= budget` always holds.
/// - Pinned keys (what is on screen) are never evicted. Pinning a key that is not loaded yet is
///   allowed; the pin applies when it arrives.
/// - When an insert cannot fit even after evicting every unpinned entry (pinned bitmaps alone
///   fill the budget, or the bitmap is bigger than the budget), the insert is refused, `insert`
///   returns false and `onPressure` is told. The caller shows a placeholder or asks for a smaller
///   size class, and the owner can raise the budget or shrink the thumbnail size. Nothing exceeds
///   the budget silently.
///
/// Thread-safe: the loader inserts from worker threads, the UI reads on the loop.
public final class ImageCache: Sendable {
    /// Why an insert was refused.
    public struct Pressure: Sendable, Equatable, CustomStringConvertible {
        public var key: ImageKey
        public var neededBytes: Int
        public var pinnedBytes: Int
        public var budget: Int

        public var description: String {
            "image cache over budget: \(key) needs \(neededBytes) bytes, pinned \(pinnedBytes) of \(budget)"
        }
    }

    public static let defaultBudget = 64 << 20

    private struct Entry {
        var bitmap: Bitmap
        var bytes: Int
    }

    private struct State {
        var entries: [ImageKey: Entry] = [:]
        var recency = RecencyList<ImageKey>()
        var pins: [ImageKey: Int] = [:]
        var totalBytes = 0
        let budget: Int
    }

    public let budget: Int
    private let onPressure: (@Sendable (Pressure) -> Void)?
    private let state: Locked<State>

    /// - Parameters:
    ///   - budget: bytes of pixel memory (`Bitmap.byteCount`) the cache may hold.
    ///   - onPressure: told about every refused insert (log it); runs on the inserting thread.
    public init(budget: Int = ImageCache.defaultBudget,
                onPressure: (@Sendable (Pressure) -> Void)? = nil) {
        self.budget = budget
        self.onPressure = onPressure
        self.state = Locked(State(budget: budget))
    }

    /// The bitmap for `key`, marking it recently used.
    public func bitmap(for key: ImageKey) -> Bitmap? {
        state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            state.recency.touch(key)
            return entry.bitmap
        }
    }

    public func contains(_ key: ImageKey) -> Bool {
        state.withLock { $0.entries[key] != nil }
    }

    /// Stores `bitmap`, evicting least recently used unpinned entries as needed. Returns false
    /// (and reports through `onPressure`) when it cannot fit; see the policy above.
    @discardableResult
    public func insert(_ bitmap: Bitmap, for key: ImageKey) -> Bool {
        let bytes = bitmap.byteCount
        let refused: Pressure? = state.withLock { state in
            // A replaced entry's bytes count as free, but it stays until the insert succeeds.
            let replacedBytes = state.entries[key]?.bytes ?? 0
            // Victims are chosen before anything is removed; the iterator must be gone by then,
            // or removing would copy the whole recency list (copy-on-write).
            let (victims, freed) = Self.victims(in: state, toFit: bytes, replacing: key, replacedBytes: replacedBytes)
            guard state.totalBytes - freed + bytes <= budget else {
                // Evict nothing: a refused insert should not cost the others their place.
                return Pressure(key: key, neededBytes: bytes,
                                pinnedBytes: pinnedBytes(state), budget: budget)
            }
            for victim in victims {
                state.recency.remove(victim)
                state.entries[victim] = nil
            }
            state.totalBytes -= freed
            state.entries[key] = Entry(bitmap: bitmap, bytes: bytes)
            state.recency.touch(key)
            state.totalBytes += bytes
            return nil
        }
        if let refused { onPressure?(refused) }
        return refused == nil
    }

    /// Protects `key` from eviction until a matching `unpin`. Pins nest.
    public func pin(_ key: ImageKey) {
        state.withLock { $0.pins[key, default: 0] += 1 }
    }

    public func unpin(_ key: ImageKey) {
        state.withLock { state in
            guard let count = state.pins[key] else { return }
            state.pins[key] = count > 1 ? count - 1 : nil
        }
    }

    /// Drops every entry nobody pinned (a clip starts playing: the memory goes to its decoder).
    public func removeUnpinned() {
        state.withLock { state in
            for (key, entry) in state.entries where state.pins[key] == nil {
                state.entries[key] = nil
                state.recency.remove(key)
                state.totalBytes -= entry.bytes
            }
        }
    }

    /// Drops one entry (the file changed or vanished); its pins stay.
    public func remove(_ key: ImageKey) {
        state.withLock { state in
            guard let old = state.entries.removeValue(forKey: key) else { return }
            state.recency.remove(key)
            state.totalBytes -= old.bytes
        }
    }

    /// Drops every entry whose path is `path`, at any size class.
    public func removeAll(path: RawPath) {
        state.withLock { state in
            for (key, entry) in state.entries where key.path == path {
                state.entries[key] = nil
                state.recency.remove(key)
                state.totalBytes -= entry.bytes
            }
        }
    }

    public var totalBytes: Int { state.withLock { $0.totalBytes } }
    public var count: Int { state.withLock { $0.entries.count } }
    public var pinnedBytes: Int { state.withLock { pinnedBytes($0) } }
    public var keys: Set<ImageKey> { state.withLock { Set($0.entries.keys) } }
    public func isPinned(_ key: ImageKey) -> Bool { state.withLock { $0.pins[key] != nil } }

    /// Least recently used unpinned entries whose removal makes room for `bytes`.
    private static func victims(in state: borrowing State, toFit bytes: Int, replacing key: ImageKey,
                                replacedBytes: Int) -> ([ImageKey], Int) {
        var victims: [ImageKey] = []
        var freed = replacedBytes
        let budget = state.budget
        for candidate in state.recency.oldestFirst() {
            if state.totalBytes - freed + bytes <= budget { break }
            guard candidate != key, state.pins[candidate] == nil else { continue }
            victims.append(candidate)
            freed += state.entries[candidate]!.bytes
        }
        return (victims, freed)
    }

    private func pinnedBytes(_ state: borrowing State) -> Int {
        state.pins.keys.reduce(0) { $0 + (state.entries[$1]?.bytes ?? 0) }
    }
}
