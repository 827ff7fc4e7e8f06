extension Array {
    /// Puts the `count` smallest elements first, in order, leaving the rest after them unordered;
    /// returns how many leading elements are now in order (all of them when sorting everything
    /// was as cheap). On unordered input this costs about n + k·log k·log(n/k) comparisons
    /// instead of a full sort's n·log n: a scan can emit the first screen of a 100,000-file
    /// folder without sorting all of it first.
    mutating func orderPrefix(_ count: Int, by precedes: (Element, Element) -> Bool) -> Int {
        let k = Swift.max(0, Swift.min(count, self.count))
        if k * 4 >= self.count {
            sort(by: precedes)
            return self.count
        }
        guard k > 0 else { return 0 }
        // A max-heap of the k smallest so far in self[0..<k]; anything smaller than its top
        // replaces the top.
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                var child = 2 * parent + 1
                if child >= k { return }
                if child + 1 < k && precedes(self[child], self[child + 1]) { child += 1 }
                guard precedes(self[parent], self[child]) else { return }
                swapAt(parent, child)
                parent = child
            }
        }
        for start in stride(from: k / 2 - 1, through: 0, by: -1) { siftDown(start) }
        for index in k..<self.count where precedes(self[index], self[0]) {
            swapAt(0, index)
            siftDown(0)
        }
        self[0..<k].sort(by: precedes)
        return k
    }
}
