/// A min-heap of pending loads ordered by distance to the viewport (then by arrival).
///
/// Priorities change constantly while the grid scrolls, so entries are never updated in place:
/// a new entry is pushed with a fresh generation and the old one becomes stale. `popMin` skips
/// entries whose generation is no longer current (`isCurrent`), which is also how a withdrawn
/// request disappears without a search.
struct LoadQueue {
    struct Entry {
        var distance: Double
        /// Unique and increasing; breaks ties first-come first-served and identifies staleness.
        var generation: UInt64
        var key: ImageKey

        func precedes(_ other: Entry) -> Bool {
            distance != other.distance ? distance < other.distance : generation < other.generation
        }
    }

    private(set) var entries: [Entry] = []

    var count: Int { entries.count }

    mutating func push(_ entry: Entry) {
        entries.append(entry)
        siftUp(entries.count - 1)
    }

    /// Removes and returns the most urgent entry for which `isCurrent` holds; stale ones are dropped.
    mutating func popMin(isCurrent: (Entry) -> Bool) -> Entry? {
        while let top = entries.first {
            let last = entries.removeLast()
            if !entries.isEmpty {
                entries[0] = last
                siftDown(0)
            }
            if isCurrent(top) { return top }
        }
        return nil
    }

    /// Drops every stale entry at once, so a long fling cannot grow the heap without bound.
    mutating func compact(isCurrent: (Entry) -> Bool) {
        entries.removeAll { !isCurrent($0) }
        guard entries.count > 1 else { return }
        for index in stride(from: entries.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].precedes(entries[parent]) else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var best = parent
            if left < entries.count, entries[left].precedes(entries[best]) { best = left }
            if right < entries.count, entries[right].precedes(entries[best]) { best = right }
            guard best != parent else { return }
            entries.swapAt(parent, best)
            parent = best
        }
    }
}
