/// Keys from least to most recently used: a doubly linked list threaded through a dictionary,
/// so touching, removing and finding the oldest are all O(1).
struct RecencyList<Key: Hashable> {
    private var links: [Key: (older: Key?, newer: Key?)] = [:]
    private(set) var oldest: Key?
    private(set) var newest: Key?

    var count: Int { links.count }

    /// Makes `key` the most recent (inserting it if absent).
    mutating func touch(_ key: Key) {
        remove(key)
        links[key] = (newest, nil)
        if let newest { links[newest]!.newer = key }
        newest = key
        if oldest == nil { oldest = key }
    }

    mutating func remove(_ key: Key) {
        guard let link = links.removeValue(forKey: key) else { return }
        if let older = link.older { links[older]!.newer = link.newer } else { oldest = link.newer }
        if let newer = link.newer { links[newer]!.older = link.older } else { newest = link.older }
    }

    /// Keys oldest first; do not mutate the list while iterating.
    func oldestFirst() -> some Sequence<Key> {
        sequence(state: oldest) { cursor -> Key? in
            guard let key = cursor else { return nil }
            cursor = links[key]!.newer
            return key
        }
    }
}
