import Graphics

/// Where the thumbnails of a horizontal strip go: square cells as tall as the strip minus
/// `spacing`, `spacing` apart, like ScrollViewSuite's 160-px strip (150-px thumbnails, 10-px
/// padding). Pure geometry, shared by drawing, lazy loading, hit testing and the drop index.
public struct StripLayout: Hashable, Sendable {
    public let height: Double
    public let itemCount: Int
    public let spacing: Double

    public init(height: Double, itemCount: Int, spacing: Double = 10) {
        self.height = max(0, height)
        self.itemCount = max(0, itemCount)
        self.spacing = max(0, spacing)
    }

    /// Edge of each square cell.
    public var cellSize: Double { max(1, height - spacing) }
    /// Distance from one cell's left edge to the next.
    public var pitch: Double { cellSize + spacing }
    public var contentWidth: Double { itemCount == 0 ? 0 : spacing + Double(itemCount) * pitch }
    public var contentSize: Size { Size(width: contentWidth, height: height) }

    /// The frame of cell `index` in content coordinates.
    public func frame(of index: Int) -> Rect {
        Rect(x: spacing + Double(index) * pitch, y: spacing / 2, width: cellSize, height: cellSize)
    }

    /// Indices of the cells whose horizontal extent meets `rect` (content coordinates).
    public func indices(intersecting rect: Rect) -> Range<Int> {
        guard itemCount > 0, rect.width > 0 else { return 0..<0 }
        let first = max(0, Int(((rect.minX - spacing - cellSize) / pitch).rounded(.down)) + 1)
        let last = min(itemCount - 1, Int(((rect.maxX - spacing) / pitch).rounded(.up)) - 1)
        return first <= last ? first..<(last + 1) : 0..<0
    }

    /// The cell under `point`, or nil in the spacing or past the end.
    public func index(at point: Point) -> Int? {
        let index = Int(((point.x - spacing) / pitch).rounded(.down))
        guard index >= 0, index < itemCount, frame(of: index).contains(point) else { return nil }
        return index
    }

    /// The nearest cell to `point` along the strip, clamped: where a dragged thumbnail lands.
    public func nearestIndex(to point: Point) -> Int {
        guard itemCount > 0 else { return 0 }
        return min(itemCount - 1, max(0, Int(((point.x - spacing / 2) / pitch).rounded(.down))))
    }
}
