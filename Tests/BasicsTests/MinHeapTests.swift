import Basics
import Testing

@Suite struct MinHeapTests {
    struct Item: HeapOrdered, Equatable {
        let value: Int
        let order: Int
        func precedes(_ other: Item) -> Bool { (value, order) < (other.value, other.order) }
    }

    @Test func removesInOrderWithTiesFirstComeFirstServed() {
        var random = SystemRandomNumberGenerator()
        var heap = MinHeap<Item>()
        let items = (0..<500).map { Item(value: Int.random(in: 0..<50, using: &random), order: $0) }
        for item in items { heap.insert(item) }
        #expect(heap.count == 500 && heap.first == items.min { $0.precedes($1) })
        var out: [Item] = []
        while let item = heap.removeFirst() { out.append(item) }
        #expect(out == items.sorted { $0.precedes($1) })
        #expect(heap.isEmpty && heap.removeFirst() == nil)
    }

    @Test func removeAllKeepsTheOrderOfWhatIsLeft() {
        var heap = MinHeap<Item>()
        for i in (0..<100).reversed() { heap.insert(Item(value: i, order: 0)) }
        heap.removeAll { $0.value % 3 == 0 }
        var out: [Int] = []
        while let item = heap.removeFirst() { out.append(item.value) }
        #expect(out == (0..<100).filter { $0 % 3 != 0 })
    }
}
