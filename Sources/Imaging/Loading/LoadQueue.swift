import Basics

/// A min-heap of pending loads ordered by distance to the viewport (then by arrival).
///
/// Priorities change constantly while the grid scrolls, so entries are never updated in place:
/// a new entry is pushed with a fresh generation and the old one becomes stale. `popMin` skips
/// entries whose generation is no longer current (`isCurrent`), which is also how a withdrawn
/// request disappears without a search.
struct LoadQueue {
    struct Entry: HeapOrdered {
        var distance: Double
        /// Unique and increasing; breaks ties first-come first-served and identifies staleness.
        var generation: UInt64
        var key: ImageKey

        func precedes(_ other: Entry) -> Bool {
            distance != other.distance ? distance < other.distance : generation < other.generation
        }
    }

    private var heap = MinHeap<Entry>()

    var count: Int { heap.count }

    mutating func push(_ entry: Entry) { heap.insert(entry) }

    /// Removes and returns the most urgent entry for which `isCurrent` holds; stale ones are dropped.
    mutating func popMin(isCurrent: (Entry) -> Bool) -> Entry? {
        while let top = heap.removeFirst() {
            if isCurrent(top) { return top }
        }
        return nil
    }

    /// Drops every stale entry at once, so a long fling cannot grow the heap without bound.
    mutating func compact(isCurrent: (Entry) -> Bool) {
        heap.removeAll { !isCurrent($0) }
    }
}
