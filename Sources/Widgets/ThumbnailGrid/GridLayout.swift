import Graphics

/// Where the cells of a thumbnail grid go: pure geometry, shared by drawing, lazy loading
/// (which cells intersect the viewport), hit testing (which photo a tap lands on) and reordering
/// (the drop index under the finger).
///
/// Columns come from the width and the preferred thumbnail size; cells then stretch so the
/// columns fill the width exactly, and stay square.
public struct GridLayout: Hashable, Sendable {
    public let width: Double
    public let itemCount: Int
    public let spacing: Double
    public let columns: Int
    public let cellSize: Double

    public init(width: Double, itemCount: Int, preferredCellSize: Double, spacing: Double = 8) {
        self.width = max(0, width)
        self.itemCount = max(0, itemCount)
        self.spacing = max(0, spacing)
        let pitch = max(1, preferredCellSize) + self.spacing
        columns = max(1, Int(((self.width - self.spacing) / pitch).rounded(.down)))
        cellSize = max(1, (self.width - self.spacing * Double(columns + 1)) / Double(columns))
    }

    /// Distance from one row's top to the next.
    public var rowPitch: Double { cellSize + spacing }
    public var rows: Int { (itemCount + columns - 1) / columns }
    public var contentHeight: Double { rows == 0 ? 0 : Double(rows) * rowPitch + spacing }
    public var contentSize: Size { Size(width: width, height: contentHeight) }

    /// The frame of cell `index` in content coordinates.
    public func frame(of index: Int) -> Rect {
        let row = index / columns, column = index % columns
        return Rect(x: spacing + Double(column) * (cellSize + spacing), y: spacing + Double(row) * rowPitch,
                    width: cellSize, height: cellSize)
    }

    /// Indices of the cells whose frames intersect `rect` (content coordinates), in order.
    public func indices(intersecting rect: Rect) -> Range<Int> {
        guard itemCount > 0, !rect.isEmpty else { return 0..<0 }
        // A row r spans [spacing + r·pitch, spacing + r·pitch + cell); find the first and last touched.
        let firstRow = max(0, Int(((rect.minY - spacing - cellSize) / rowPitch).rounded(.down)) + 1)
        let lastRow = min(rows - 1, Int(((rect.maxY - spacing) / rowPitch).rounded(.up)) - 1)
        guard firstRow <= lastRow else { return 0..<0 }
        let firstColumn = max(0, Int(((rect.minX - spacing - cellSize) / (cellSize + spacing)).rounded(.down)) + 1)
        let lastColumn = min(columns - 1, Int(((rect.maxX - spacing) / (cellSize + spacing)).rounded(.up)) - 1)
        guard firstColumn <= lastColumn else { return 0..<0 }
        // Rows are contiguous in index space only when all columns are touched; callers filter
        // by `frame(of:).intersects` when the rect is narrower than the grid.
        let lower = firstRow * columns + firstColumn
        let upper = min(itemCount, lastRow * columns + lastColumn + 1)
        return lower < upper ? lower..<upper : 0..<0
    }

    /// The cell under `point` (content coordinates), or nil in the spacing or past the end.
    public func index(at point: Point) -> Int? {
        guard point.x >= 0, point.y >= 0 else { return nil }
        let column = Int(((point.x - spacing) / (cellSize + spacing)).rounded(.down))
        let row = Int(((point.y - spacing) / rowPitch).rounded(.down))
        guard column >= 0, column < columns, row >= 0 else { return nil }
        let index = row * columns + column
        guard index < itemCount, frame(of: index).contains(point) else { return nil }
        return index
    }

    /// The nearest cell to `point`, clamped into the grid: where a dragged photo would land.
    public func nearestIndex(to point: Point) -> Int {
        guard itemCount > 0 else { return 0 }
        let column = min(columns - 1, max(0, Int(((point.x - spacing / 2) / (cellSize + spacing)).rounded(.down))))
        let row = min(rows - 1, max(0, Int(((point.y - spacing / 2) / rowPitch).rounded(.down))))
        return min(itemCount - 1, row * columns + column)
    }
}
