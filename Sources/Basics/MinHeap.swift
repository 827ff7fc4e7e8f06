/// An element a `MinHeap` orders: `precedes` is a strict order (the heap's first element is
/// one that nothing precedes).
public protocol HeapOrdered {
    func precedes(_ other: Self) -> Bool
}

/// A binary min-heap: the first element in O(1), insert and removal in O(log n), and a bulk
/// removal that rebuilds in O(n). The event loop's timers and the image loader's queue both use
/// it with lazy deletion (a cancelled or re-prioritised entry stays until it surfaces or until a
/// `removeAll` sweep). Generic code inlined into its callers, so each use is specialised.
public struct MinHeap<Element: HeapOrdered> {
    @usableFromInline var elements: [Element] = []

    @inlinable public init() {}

    @inlinable public var count: Int { elements.count }
    @inlinable public var isEmpty: Bool { elements.isEmpty }
    /// The element nothing precedes.
    @inlinable public var first: Element? { elements.first }

    @inlinable public mutating func insert(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child].precedes(elements[parent]) else { return }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the first element.
    @inlinable @discardableResult public mutating func removeFirst() -> Element? {
        guard let top = elements.first else { return nil }
        let last = elements.removeLast()
        if !elements.isEmpty {
            elements[0] = last
            siftDown(0)
        }
        return top
    }

    /// Drops every element `shouldRemove` picks, then restores the order in one pass.
    @inlinable public mutating func removeAll(where shouldRemove: (Element) throws -> Bool) rethrows {
        try elements.removeAll(where: shouldRemove)
        guard elements.count > 1 else { return }
        for index in stride(from: elements.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    @inlinable mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var first = parent
            if left < elements.count, elements[left].precedes(elements[first]) { first = left }
            if right < elements.count, elements[right].precedes(elements[first]) { first = right }
            guard first != parent else { return }
            elements.swapAt(parent, first)
            parent = first
        }
    }
}
