import Basics
import Graphics
@testable import Imaging
import TestSupport
import Testing

@Suite("ImageCache")
struct LoadingImageCacheTests {
    /// A bitmap of exactly `rows` × 64 bytes (16 XRGB pixels a row).
    func bitmap(rows: Int) -> Bitmap { Bitmap(width: 16, height: rows) }

    @Test("least recently used entries go first")
    func lruEviction() {
        let cache = ImageCache(budget: 64 * 30)
        cache.insert(bitmap(rows: 10), for: key("a"))
        cache.insert(bitmap(rows: 10), for: key("b"))
        cache.insert(bitmap(rows: 10), for: key("c"))
        _ = cache.bitmap(for: key("a"))               // a is now the most recent
        cache.insert(bitmap(rows: 10), for: key("d"))
        #expect(cache.keys == [key("a"), key("c"), key("d")])
        #expect(cache.totalBytes == 64 * 30)
    }

    @Test("size classes of one path are separate entries")
    func sizeClassesAreKeys() {
        let cache = ImageCache(budget: 1 << 20)
        let thumb = ImageKey(path: "/p/a.jpg", size: .thumbnail(edge: 128))
        let screen = ImageKey(path: "/p/a.jpg", size: .screen(width: 800, height: 480))
        cache.insert(bitmap(rows: 1), for: thumb)
        cache.insert(bitmap(rows: 2), for: screen)
        #expect(cache.bitmap(for: thumb)?.height == 1)
        #expect(cache.bitmap(for: screen)?.height == 2)
        cache.removeAll(path: "/p/a.jpg")
        #expect(cache.count == 0 && cache.totalBytes == 0)
    }

    @Test("pinned entries survive and an insert that cannot fit is refused and reported")
    func pinnedOverBudgetIsReported() {
        let reports = Locked<[ImageCache.Pressure]>([])
        let cache = ImageCache(budget: 64 * 100) { pressure in reports.withLock { $0.append(pressure) } }
        for name in ["a", "b"] {
            cache.pin(key(name))
            #expect(cache.insert(bitmap(rows: 40), for: key(name)))
        }
        cache.pin(key("c"))
        #expect(!cache.insert(bitmap(rows: 40), for: key("c")))
        #expect(cache.keys == [key("a"), key("b")])
        #expect(cache.totalBytes <= cache.budget)
        let report = reports.withLock { $0 }
        #expect(report == [ImageCache.Pressure(key: key("c"), neededBytes: 64 * 40,
                                               pinnedBytes: 64 * 80, budget: 64 * 100)])
        cache.unpin(key("a"))
        #expect(cache.insert(bitmap(rows: 40), for: key("c")))
        #expect(cache.keys == [key("b"), key("c")])
    }

    @Test("a bitmap larger than the whole budget is refused without evicting anything")
    func oversizeRefused() {
        let cache = ImageCache(budget: 64 * 10)
        cache.insert(bitmap(rows: 5), for: key("a"))
        #expect(!cache.insert(bitmap(rows: 11), for: key("big")))
        #expect(cache.keys == [key("a")])
    }

    @Test("replacing a pinned entry with one that cannot fit keeps the old one")
    func failedReplaceKeepsOld() {
        let cache = ImageCache(budget: 64 * 10)
        cache.pin(key("a"))
        cache.insert(bitmap(rows: 5), for: key("a"))
        #expect(!cache.insert(bitmap(rows: 12), for: key("a")))
        #expect(cache.bitmap(for: key("a"))?.height == 5)
    }

    @Test("random insert/pin/unpin/get sequences never exceed the budget and match a model",
          arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomSequences(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let budget = 64 * 100
        let cache = ImageCache(budget: budget)
        var model = ModelCache(budget: budget)
        let names = (0..<24).map { "k\($0)" }
        for _ in 0..<3000 {
            let name = names.randomElement(using: &random)!
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let rows = Int.random(in: 1...30, using: &random)
                let accepted = cache.insert(bitmap(rows: rows), for: key(name))
                #expect(accepted == model.insert(name, bytes: 64 * rows))
            case 4..<6:
                cache.pin(key(name)); model.pins[name, default: 0] += 1
            case 6..<8:
                cache.unpin(key(name))
                if let count = model.pins[name] { model.pins[name] = count > 1 ? count - 1 : nil }
            default:
                #expect((cache.bitmap(for: key(name)) != nil) == model.get(name))
            }
            let pinnedBefore = Set(model.order.filter { model.pins[$0.name] != nil }.map(\.name))
            #expect(cache.totalBytes <= budget)
            #expect(cache.totalBytes == model.order.reduce(0) { $0 + $1.bytes })
            #expect(cache.keys == Set(model.order.map { key($0.name) }))
            #expect(pinnedBefore.allSatisfy { cache.contains(key($0)) })
        }
    }
}

/// The cache policy written the slow, obvious way: an array in recency order.
struct ModelCache {
    let budget: Int
    var order: [(name: String, bytes: Int)] = []   // oldest first
    var pins: [String: Int] = [:]

    init(budget: Int) { self.budget = budget }

    mutating func get(_ name: String) -> Bool {
        guard let index = order.firstIndex(where: { $0.name == name }) else { return false }
        order.append(order.remove(at: index))
        return true
    }

    mutating func insert(_ name: String, bytes: Int) -> Bool {
        var kept = order.filter { $0.name != name }
        var total = kept.reduce(0) { $0 + $1.bytes }
        var index = 0
        while total + bytes > budget, index < kept.count {
            if pins[kept[index].name] == nil {
                total -= kept[index].bytes
                kept.remove(at: index)
            } else {
                index += 1
            }
        }
        guard total + bytes <= budget else { return false }
        order = kept + [(name, bytes)]
        return true
    }
}
