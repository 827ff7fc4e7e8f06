#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The outline of a rectangle with round corners as a convex polygon (a circle or a pill when
/// the radius is half the short side), cut into horizontal slabs: the trapezoids
/// `Canvas.fillRoundedRect` hands pixman to rasterise with anti-aliased edges. Pure geometry,
/// so the shape can be checked without pixels.
public struct RoundedRectOutline: Sendable {
    public let rect: Rect
    /// The corner radius actually used: never more than half the short side.
    public let radius: Double

    public init(rect: Rect, radius: Double) {
        self.rect = rect
        self.radius = max(0, min(radius, min(rect.width, rect.height) / 2))
    }

    /// Segments per quarter circle: enough that the chord error stays under a tenth of a pixel
    /// (a polygon edge never shows as a flat), at least 2, at most 32.
    public var segmentsPerCorner: Int {
        guard radius > 0 else { return 0 }
        // Chord error for angle a: r·(1 − cos(a/2)) ≈ r·a²/8 ≤ 0.1  →  a ≤ sqrt(0.8 / r).
        let step = (0.8 / radius).squareRoot()
        return min(32, max(2, Int((Double.pi / 2 / step).rounded(.up))))
    }

    /// Corner points clockwise (screen coordinates, y down), starting at the top-left arc's end.
    public var points: [Point] {
        guard radius > 0 else {
            return [Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
                    Point(x: rect.maxX, y: rect.maxY), Point(x: rect.minX, y: rect.maxY)]
        }
        let r = radius, n = segmentsPerCorner
        // Centres of the corner circles and the angle each arc starts at (y down: −π/2 is up).
        let corners: [(Point, Double)] = [
            (Point(x: rect.maxX - r, y: rect.minY + r), -Double.pi / 2),
            (Point(x: rect.maxX - r, y: rect.maxY - r), 0),
            (Point(x: rect.minX + r, y: rect.maxY - r), Double.pi / 2),
            (Point(x: rect.minX + r, y: rect.minY + r), Double.pi),
        ]
        var result: [Point] = []
        result.reserveCapacity(4 * (n + 1))
        for (centre, start) in corners {
            for i in 0...n {
                let a = start + Double(i) / Double(n) * Double.pi / 2
                result.append(Point(x: centre.x + r * cos(a), y: centre.y + r * sin(a)))
            }
        }
        return result
    }

    /// A horizontal band of the shape between two outline rows, bounded left and right by one
    /// outline segment each (pixman's trapezoid).
    public struct Slab: Sendable {
        public var top: Double
        public var bottom: Double
        public var left: (Point, Point)
        public var right: (Point, Point)
    }

    /// The shape as slabs from top to bottom. The outline is symmetric, so its right side (the
    /// top-right and bottom-right arcs, going down) and its left side (the top-left and
    /// bottom-left arcs, also going down) have their corners on the same rows.
    public var slabs: [Slab] {
        guard rect.width > 0, rect.height > 0 else { return [] }
        guard radius > 0 else {
            return [Slab(top: rect.minY, bottom: rect.maxY,
                         left: (Point(x: rect.minX, y: rect.minY), Point(x: rect.minX, y: rect.maxY)),
                         right: (Point(x: rect.maxX, y: rect.minY), Point(x: rect.maxX, y: rect.maxY)))]
        }
        let all = points
        let half = all.count / 2
        let right = Array(all[0..<half])
        let left = Array(all[half...].reversed())
        var result: [Slab] = []
        result.reserveCapacity(half)
        for i in 0..<(half - 1) {
            let top = right[i].y, bottom = right[i + 1].y
            guard bottom - top > 1e-9 else { continue }
            result.append(Slab(top: top, bottom: bottom, left: (left[i], left[i + 1]), right: (right[i], right[i + 1])))
        }
        return result
    }
}
