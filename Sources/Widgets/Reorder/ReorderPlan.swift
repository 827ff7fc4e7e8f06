/// The order of items while one of them is being dragged: the dragged item is taken out of its
/// home index and inserted at the drop index; everything between shifts by one place. Forward
/// and backward moves, across rows of a grid or along a strip, are the same operation on indices.
public struct ReorderPlan: Hashable, Sendable {
    public let from: Int
    public let to: Int

    /// Where the item that was at `index` before the move is shown during/after it.
    public func displayIndex(of index: Int) -> Int {
        if index == from { return to }
        if from < to, index > from, index <= to { return index - 1 }
        if to < from, index >= to, index < from { return index + 1 }
        return index
    }

    /// The item shown at `displayIndex` during/after the move (the inverse of `displayIndex(of:)`).
    public func item(atDisplay displayIndex: Int) -> Int {
        if displayIndex == to { return from }
        if from < to, displayIndex >= from, displayIndex < to { return displayIndex + 1 }
        if to < from, displayIndex > to, displayIndex <= from { return displayIndex - 1 }
        return displayIndex
    }

    /// `items` in their new order.
    public func apply<T>(to items: [T]) -> [T] {
        guard from != to, items.indices.contains(from), items.indices.contains(to) else { return items }
        var result = items
        let moved = result.remove(at: from)
        result.insert(moved, at: to)
        return result
    }

    /// Views keyed by index, re-keyed to where they are shown after the move (a drop commits
    /// the plan to the grid's or strip's cells).
    public func rekeyed<V>(_ byIndex: [Int: V]) -> [Int: V] {
        var result: [Int: V] = [:]
        for (index, value) in byIndex { result[displayIndex(of: index)] = value }
        return result
    }
}
