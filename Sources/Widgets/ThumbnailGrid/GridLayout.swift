import Glibc
import Graphics

/// Where the cells of a thumbnail grid go: pure geometry, shared by drawing, lazy loading
/// (which cells intersect the viewport), hit testing (which photo a tap lands on) and reordering
/// (the drop index under the finger).
///
/// Columns come from the width and the preferred thumbnail size; cells then stretch so the
/// columns fill the width exactly, and stay square. Given the viewport's height too, the layout
/// is chosen so whole rows fill it (`init(width:height:...)`): no thumbnail cut in half at the
/// bottom of the screen at rest, as in iOS Photos.
public struct GridLayout: Hashable, Sendable {
    public let width: Double
    public let itemCount: Int
    /// Between columns, and at the left and right edges.
    public let spacing: Double
    /// Between rows, and above the first and below the last: `spacing`, or a little more or
    /// less so that whole rows fill the viewport's height.
    public let rowSpacing: Double
    public let columns: Int
    public let cellSize: Double

    public init(width: Double, itemCount: Int, preferredCellSize: Double, spacing: Double = 8) {
        self.width = max(0, width)
        self.itemCount = max(0, itemCount)
        self.spacing = max(0, spacing)
        rowSpacing = self.spacing
        let pitch = max(1, preferredCellSize) + self.spacing
        columns = max(1, Int(((self.width - self.spacing) / pitch).rounded(.down)))
        cellSize = max(1, (self.width - self.spacing * Double(columns + 1)) / Double(columns))
    }

    /// The layout for a viewport of `width` x `height`: of the column counts near the preferred
    /// size, the one whose square cells come closest to it while whole rows fill the height
    /// with row gaps between half and two and a half times `spacing`. No cell is ever taller than the
    /// viewport (a 320x240 screen still shows whole thumbnails). Falls back to the width-only
    /// layout (cells capped at the height) when no column count fits.
    public init(width: Double, height: Double, itemCount: Int, preferredCellSize: Double, spacing: Double = 8) {
        let plain = GridLayout(width: width, itemCount: itemCount, preferredCellSize: preferredCellSize, spacing: spacing)
        guard height > 0, width > 0 else { self = plain; return }
        let s = plain.spacing, preferred = max(1, preferredCellSize)
        var best: (cost: Double, columns: Int, cell: Double, rowSpacing: Double)?
        let most = max(1, Int(((width - s) / (preferred * 0.5 + s)).rounded(.down)))
        for columns in 1...most {
            let cell = (width - s * Double(columns + 1)) / Double(columns)
            guard cell >= 1, cell <= height - s else { continue }
            let rowsThatFit = (height - s) / (cell + s)
            for rows in Set([rowsThatFit.rounded(.down), rowsThatFit.rounded(.up)]) where rows >= 1 {
                let gap = (height - rows * cell) / (rows + 1)
                guard gap >= max(1, s * 0.5), gap <= max(s * 2.5, 2) else { continue }
                // Size matters most; a gap unlike the column gaps a little.
                let cost = abs(log(cell / preferred)) + 0.15 * abs(gap - s) / max(s, 1)
                if best == nil || cost < best!.cost { best = (cost, columns, cell, gap) }
            }
        }
        if let best {
            self.init(width: width, itemCount: itemCount, spacing: s, rowSpacing: best.rowSpacing,
                      columns: best.columns, cellSize: best.cell)
        } else {
            // Nothing fits whole rows (a very wide, very short viewport): at least never a cell
            // taller than the viewport.
            let columns = max(plain.columns, Int(((width - s) / (max(1, height - 2 * s) + s)).rounded(.up)))
            let cell = max(1, (width - s * Double(columns + 1)) / Double(columns))
            self.init(width: width, itemCount: itemCount, spacing: s, rowSpacing: s, columns: columns, cellSize: cell)
        }
    }

    private init(width: Double, itemCount: Int, spacing: Double, rowSpacing: Double, columns: Int, cellSize: Double) {
        self.width = max(0, width)
        self.itemCount = max(0, itemCount)
        self.spacing = spacing
        self.rowSpacing = rowSpacing
        self.columns = columns
        self.cellSize = cellSize
    }

    /// Distance from one row's top to the next.
    public var rowPitch: Double { cellSize + rowSpacing }
    public var rows: Int { (itemCount + columns - 1) / columns }
    public var contentHeight: Double { rows == 0 ? 0 : Double(rows) * rowPitch + rowSpacing }
    public var contentSize: Size { Size(width: width, height: contentHeight) }

    /// The frame of cell `index` in content coordinates.
    public func frame(of index: Int) -> Rect {
        let row = index / columns, column = index % columns
        return Rect(x: spacing + Double(column) * (cellSize + spacing), y: rowSpacing + Double(row) * rowPitch,
                    width: cellSize, height: cellSize)
    }

    /// Indices of the cells whose frames intersect `rect` (content coordinates), in order.
    public func indices(intersecting rect: Rect) -> Range<Int> {
        guard itemCount > 0, !rect.isEmpty else { return 0..<0 }
        // A row r spans [spacing + r·pitch, spacing + r·pitch + cell); find the first and last touched.
        let firstRow = max(0, Int(((rect.minY - rowSpacing - cellSize) / rowPitch).rounded(.down)) + 1)
        let lastRow = min(rows - 1, Int(((rect.maxY - rowSpacing) / rowPitch).rounded(.up)) - 1)
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
        let row = Int(((point.y - rowSpacing) / rowPitch).rounded(.down))
        guard column >= 0, column < columns, row >= 0 else { return nil }
        let index = row * columns + column
        guard index < itemCount, frame(of: index).contains(point) else { return nil }
        return index
    }

    /// The nearest cell to `point`, clamped into the grid: where a dragged photo would land.
    public func nearestIndex(to point: Point) -> Int {
        guard itemCount > 0 else { return 0 }
        let column = min(columns - 1, max(0, Int(((point.x - spacing / 2) / (cellSize + spacing)).rounded(.down))))
        let row = min(rows - 1, max(0, Int(((point.y - rowSpacing / 2) / rowPitch).rounded(.down))))
        return min(itemCount - 1, row * columns + column)
    }
}
