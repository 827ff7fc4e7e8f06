import Graphics

/// Window areas that need redrawing, kept as a few rectangles.
///
/// A new rectangle merges with an existing one when their union wastes little area (overlapping
/// or adjacent changes), so two small changes far apart stay two small rectangles instead of one
/// huge union. Beyond `maxRects` the cheapest pair is merged.
public struct DamageRegion: Sendable, Equatable {
    public static let maxRects = 8

    public let bounds: PixelRect
    public private(set) var rects: [PixelRect] = []

    public init(bounds: PixelRect) {
        self.bounds = bounds
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
        while rects.count > Self.maxRects { mergeCheapestPair() }
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

extension PixelRect {
    func contains(_ r: PixelRect) -> Bool {
        r.x >= x && r.y >= y && r.maxX <= maxX && r.maxY <= maxY
    }

}
