// Points, sizes and rectangles in screen pixels. Doubles, because scroll physics and zoom
// produce fractional offsets; drawing rounds to whole pixels at the last moment.

public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
    public static func / (a: Point, s: Double) -> Point { Point(x: a.x / s, y: a.y / s) }
    public static prefix func - (a: Point) -> Point { Point(x: -a.x, y: -a.y) }

    /// Euclidean distance to another point.
    public func distance(to other: Point) -> Double {
        let dx = other.x - x, dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }

    public var length: Double { (x * x + y * y).squareRoot() }

    public var description: String { "(\(x), \(y))" }
}

public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public init(width: Int, height: Int) {
        self.init(width: Double(width), height: Double(height))
    }

    public static let zero = Size(width: 0, height: 0)

    public static func * (a: Size, s: Double) -> Size { Size(width: a.width * s, height: a.height * s) }

    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The uniform scale at which `self` fits inside `bounds` (aspect fit).
    public func scaleToFit(_ bounds: Size) -> Double {
        guard !isEmpty else { return 1 }
        return min(bounds.width / width, bounds.height / height)
    }

    /// The uniform scale at which `self` covers `bounds` completely (aspect fill).
    public func scaleToFill(_ bounds: Size) -> Double {
        guard !isEmpty else { return 1 }
        return max(bounds.width / width, bounds.height / height)
    }

    public var description: String { "\(width)x\(height)" }
}

public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
    }

    public init(size: Size) {
        self.init(origin: .zero, size: size)
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var x: Double { origin.x }
    public var y: Double { origin.y }
    public var width: Double { size.width }
    public var height: Double { size.height }
    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var center: Point { Point(x: midX, y: midY) }
    public var isEmpty: Bool { size.isEmpty }

    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    public func contains(_ r: Rect) -> Bool {
        r.minX >= minX && r.maxX <= maxX && r.minY >= minY && r.maxY <= maxY
    }

    public func intersects(_ r: Rect) -> Bool {
        !isEmpty && !r.isEmpty && r.minX < maxX && r.maxX > minX && r.minY < maxY && r.maxY > minY
    }

    /// The overlap of two rectangles; `.zero`-sized (at the overlap's corner) when they miss.
    public func intersection(_ r: Rect) -> Rect {
        let x0 = max(minX, r.minX), y0 = max(minY, r.minY)
        let x1 = min(maxX, r.maxX), y1 = min(maxY, r.maxY)
        if x1 <= x0 || y1 <= y0 { return Rect(x: x0, y: y0, width: 0, height: 0) }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle holding both; an empty rectangle does not count.
    public func union(_ r: Rect) -> Rect {
        if isEmpty { return r }
        if r.isEmpty { return self }
        let x0 = min(minX, r.minX), y0 = min(minY, r.minY)
        return Rect(x: x0, y: y0, width: max(maxX, r.maxX) - x0, height: max(maxY, r.maxY) - y0)
    }

    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }

    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// The smallest rectangle of whole pixels that covers this one.
    public var integral: Rect {
        let x0 = minX.rounded(.down), y0 = minY.rounded(.down)
        return Rect(x: x0, y: y0, width: maxX.rounded(.up) - x0, height: maxY.rounded(.up) - y0)
    }

    /// `size` scaled to fit inside this rectangle, centred (letterboxing).
    public func aspectFit(_ content: Size) -> Rect {
        let s = content.scaleToFit(size)
        let w = content.width * s, h = content.height * s
        return Rect(x: midX - w / 2, y: midY - h / 2, width: w, height: h)
    }

    /// `size` scaled to cover this rectangle, centred (cropping).
    public func aspectFill(_ content: Size) -> Rect {
        let s = content.scaleToFill(size)
        let w = content.width * s, h = content.height * s
        return Rect(x: midX - w / 2, y: midY - h / 2, width: w, height: h)
    }

    public var description: String { "(\(x), \(y), \(width), \(height))" }
}

/// A rectangle in whole pixels, as pixman and the display want it.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole pixels covered by `rect` (rounding outwards).
    public init(covering rect: Rect) {
        let r = rect.integral
        self.init(x: Int(r.minX), y: Int(r.minY), width: max(0, Int(r.width)), height: max(0, Int(r.height)))
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var area: Int { isEmpty ? 0 : width * height }
    public var rect: Rect { Rect(x: x, y: y, width: width, height: height) }

    public func intersection(_ r: PixelRect) -> PixelRect {
        let x0 = max(x, r.x), y0 = max(y, r.y)
        let x1 = min(maxX, r.maxX), y1 = min(maxY, r.maxY)
        if x1 <= x0 || y1 <= y0 { return PixelRect(x: x0, y: y0, width: 0, height: 0) }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether every pixel of `r` is inside this rectangle.
    public func contains(_ r: PixelRect) -> Bool {
        r.x >= x && r.y >= y && r.maxX <= maxX && r.maxY <= maxY
    }

    public func union(_ r: PixelRect) -> PixelRect {
        if isEmpty { return r }
        if r.isEmpty { return self }
        let x0 = min(x, r.x), y0 = min(y, r.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, r.maxX) - x0, height: max(maxY, r.maxY) - y0)
    }

    public var description: String { "[\(x),\(y) \(width)x\(height)]" }
}
