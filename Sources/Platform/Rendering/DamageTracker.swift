import Graphics

/// Which rectangles each scanout buffer still lacks.
///
/// Every presented frame's damage goes to every buffer; the buffer being written copies what it
/// lacks and is then up to date. With two buffers the back buffer therefore gets this frame's
/// damage plus the previous frame's (which went to the other buffer) — the "buffer age" rule.
struct DamageTracker {
    private(set) var pending: [[PixelRect]]
    let bounds: PixelRect
    /// Above this many rectangles, a buffer's list collapses to their bounding box.
    let maxRects: Int

    init(bufferCount: Int, bounds: PixelRect, maxRects: Int = 16) {
        self.bounds = bounds
        self.maxRects = maxRects
        pending = Array(repeating: [bounds], count: bufferCount)   // new buffers hold garbage
    }

    /// Records a frame's damage for all buffers.
    mutating func add(_ damage: [PixelRect]) {
        for rect in damage {
            let clipped = rect.intersection(bounds)
            guard !clipped.isEmpty else { continue }
            for i in pending.indices { pending[i] = Self.merged(pending[i], clipped, maxRects: maxRects) }
        }
    }

    /// Every buffer needs everything (after a modeset, regaining DRM master, a reconnect).
    mutating func invalidateAll() {
        for i in pending.indices { pending[i] = [bounds] }
    }

    /// The rectangles buffer `index` must copy now; afterwards it is up to date.
    mutating func take(for index: Int) -> [PixelRect] {
        defer { pending[index] = [] }
        return pending[index]
    }

    func isClean(_ index: Int) -> Bool { pending[index].isEmpty }

    /// Adds `rect` to `list`, dropping rectangles it covers and ignoring it if already covered.
    static func merged(_ list: [PixelRect], _ rect: PixelRect, maxRects: Int) -> [PixelRect] {
        if list.contains(where: { $0.contains(rect) }) { return list }
        var result = list.filter { !rect.contains($0) }
        result.append(rect)
        if result.count > maxRects {
            return [result.dropFirst().reduce(result[0]) { $0.union($1) }]
        }
        return result
    }
}

extension PixelRect {
    func contains(_ r: PixelRect) -> Bool {
        r.x >= x && r.y >= y && r.maxX <= maxX && r.maxY <= maxY
    }
}
