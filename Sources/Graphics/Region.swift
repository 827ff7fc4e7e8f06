/// An area of pixels kept as a few rectangles: what a window must redraw, and what each scanout
/// buffer must copy. One type from the window to the screen, so damage is merged by one rule.
///
/// A new rectangle merges with an existing one when their union wastes little area (overlapping
/// or adjacent changes), so two small changes far apart stay two small rectangles instead of one
/// huge union. Beyond `maxRects` the cheapest pair is merged. (The scanout's old rule, "drop
/// what is covered, collapse everything to one bounding box past 16", copied a whole screen's
/// span for two far-apart changes; this one keeps the window's rendering exactly as it was.)
public struct Region: Sendable, Equatable {
    /// The window's limit: more rectangles cost more per-rectangle drawing than they save.
    public static let defaultMaxRects = 8

    public let bounds: PixelRect
    public let maxRects: Int
    public private(set) var rects: [PixelRect] = []

    /// An empty region inside `bounds` (everything added is clipped to it).
    public init(bounds: PixelRect, maxRects: Int = Region.defaultMaxRects) {
        precondition(maxRects >= 1)
        self.bounds = bounds
        self.maxRects = maxRects
    }

    /// All of `bounds`.
    public static func full(_ bounds: PixelRect, maxRects: Int = Region.defaultMaxRects) -> Region {
        var region = Region(bounds: bounds, maxRects: maxRects)
        region.add(bounds)
        return region
    }

    public var isEmpty: Bool { rects.isEmpty }
    public var area: Int { rects.reduce(0) { $0 + $1.area } }

    public mutating func add(_ rect: PixelRect) {
        var r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        var merging = true
        while merging {
            merging = false
            for (i, existing) in rects.enumerated() {
                if existing.contains(r) { return }
                if r.contains(existing) || Self.shouldMerge(existing, r) {
                    r = r.union(existing)
                    rects.remove(at: i)
                    merging = true
                    break
                }
            }
        }
        rects.append(r)
        while rects.count > maxRects { mergeCheapestPair() }
    }

    public mutating func add(_ rects: some Sequence<PixelRect>) {
        for rect in rects { add(rect) }
    }

    public mutating func removeAll() {
        rects.removeAll()
    }

    /// Follows a copy of the pixels inside `area` by (`dx`, `dy`): damage inside `area` moves
    /// with the stale pixels it marks, damage outside stays.
    public mutating func shift(within area: PixelRect, dx: Int, dy: Int) {
        let old = rects
        rects.removeAll()
        for rect in old {
            for outside in rect.subtracting(area) { add(outside) }
            let inside = rect.intersection(area)
            if !inside.isEmpty { add(inside.offsetBy(dx: dx, dy: dy).intersection(area)) }
        }
    }

    /// Whether one rectangle already covers all of `rect`.
    public func covers(_ rect: PixelRect) -> Bool {
        rects.contains { $0.contains(rect) }
    }

    /// Pixels the union would redraw that neither rectangle needs.
    static func waste(_ a: PixelRect, _ b: PixelRect) -> Int {
        a.union(b).area - (a.area + b.area - a.intersection(b).area)
    }

    static func shouldMerge(_ a: PixelRect, _ b: PixelRect) -> Bool {
        waste(a, b) <= (a.area + b.area) / 4 + 256
    }

    private mutating func mergeCheapestPair() {
        guard rects.count > 1 else { return }
        var best = (i: 0, j: 1, waste: Int.max)
        for i in 0..<rects.count {
            for j in (i + 1)..<rects.count {
                let w = Self.waste(rects[i], rects[j])
                if w < best.waste { best = (i, j, w) }
            }
        }
        let merged = rects[best.i].union(rects[best.j])
        rects.remove(at: best.j)
        rects[best.i] = merged
    }
}
