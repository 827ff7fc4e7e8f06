import Basics

/// The event loop's pending timers, earliest first: a binary min-heap on (deadline, id), so the
/// next deadline is read in O(1) and a timer added or fired in O(log n). Timers added for the
/// same deadline fire in the order they were added (ids only grow).
///
/// Cancelling only forgets the handler; the heap entry is dropped when it reaches the top, or
/// when stale entries outnumber live ones (the session timer is cancelled far more often than
/// it fires, so a long-lived kiosk would otherwise keep every cancelled entry until its deadline).
struct TimerHeap<Handler> {
    private struct Entry: HeapOrdered {
        let deadline: Double
        let id: UInt64
        func precedes(_ other: Entry) -> Bool { (deadline, id) < (other.deadline, other.id) }
    }

    private var heap = MinHeap<Entry>()
    private var handlers: [UInt64: Handler] = [:]

    var count: Int { handlers.count }
    var isEmpty: Bool { handlers.isEmpty }

    /// The earliest deadline of a timer still pending.
    var earliestDeadline: Double? { heap.first?.deadline }

    mutating func insert(id: UInt64, deadline: Double, handler: Handler) {
        handlers[id] = handler
        heap.insert(Entry(deadline: deadline, id: id))
    }

    /// Forgets timer `id`; false when it had fired or was cancelled already.
    @discardableResult
    mutating func cancel(id: UInt64) -> Bool {
        guard handlers.removeValue(forKey: id) != nil else { return false }
        dropCancelledTop()
        if heap.count > 2 * handlers.count + 16 { heap.removeAll { handlers[$0.id] == nil } }
        return true
    }

    /// Takes every timer due at `now`, earliest first.
    mutating func popDue(at now: Double) -> [Handler] {
        var due: [Handler] = []
        while let top = heap.first, top.deadline <= now {
            heap.removeFirst()
            if let handler = handlers.removeValue(forKey: top.id) { due.append(handler) }
        }
        dropCancelledTop()
        return due
    }

    private mutating func dropCancelledTop() {
        while let top = heap.first, handlers[top.id] == nil { heap.removeFirst() }
    }
}
