import Graphics

/// Which rectangles each scanout buffer still lacks: one `Region` per buffer, merged by the
/// same rule as the window's damage.
///
/// Every presented frame's damage goes to every buffer; the buffer being written copies what it
/// lacks and is then up to date. With two buffers the back buffer therefore gets this frame's
/// damage plus the previous frame's (which went to the other buffer) — the "buffer age" rule.
struct DamageTracker {
    private(set) var pending: [Region]
    let bounds: PixelRect

    /// `maxRects` per buffer: twice the window's, as a buffer holds two frames' damage.
    init(bufferCount: Int, bounds: PixelRect, maxRects: Int = 2 * Region.defaultMaxRects) {
        self.bounds = bounds
        pending = Array(repeating: .full(bounds, maxRects: maxRects), count: bufferCount)   // new buffers hold garbage
    }

    /// Records a frame's damage for all buffers.
    mutating func add(_ damage: [PixelRect]) {
        for i in pending.indices { pending[i].add(damage) }
    }

    /// Every buffer needs everything (after a modeset, regaining DRM master, a reconnect).
    mutating func invalidateAll() {
        for i in pending.indices { pending[i].add(bounds) }
    }

    /// The rectangles buffer `index` must copy now; afterwards it is up to date.
    mutating func take(for index: Int) -> [PixelRect] {
        defer { pending[index].removeAll() }
        return pending[index].rects
    }

    func isClean(_ index: Int) -> Bool { pending[index].isEmpty }
}
