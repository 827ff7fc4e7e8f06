import Basics
import Graphics

/// A picture that exists only as tiles drawn on demand: ScrollViewSuite's huge example image.
/// The image is a checkerboard of `cellSize` cells in soft colours (the same at every level, so
/// coarser tiles stand in for finer ones seamlessly), and each tile carries a thin frame and
/// its label "level col,row" drawn with Graphics.Font. For demos, tests and measurements: no
/// file, no decode, any size.
public final class ProceduralTileSource: TileSource, @unchecked Sendable {
    public let layout: DeepZoomLayout
    public let cellSize: Int
    private let fonts = FontPool(pixelSize: 16)

    public init(width: Int = 20000, height: Int = 20000, tileSize: Int = 256, cellSize: Int = 1000) {
        layout = DeepZoomLayout(width: width, height: height, tileSize: tileSize, overlap: 0)
        self.cellSize = cellSize
    }

    public var identity: String { "procedural:\(layout.width)x\(layout.height)/\(layout.tileSize)/\(cellSize)" }

    /// The colour of the cell at full-resolution pixel (x, y).
    public func color(atImagePoint x: Int, _ y: Int) -> Color {
        Self.cellColor(column: x / cellSize, row: y / cellSize)
    }

    static func cellColor(column: Int, row: Int) -> Color {
        // Soft hues that change across the image, alternating lighter and darker cells.
        let light = (column + row) % 2 == 0
        let r = 90 + (column * 37) % 120, g = 100 + (row * 53) % 110, b = 120 + ((column + row) * 29) % 100
        let k = light ? 1.0 : 0.72
        return Color(red: UInt8(Double(r) * k), green: UInt8(Double(g) * k), blue: UInt8(Double(b) * k))
    }

    public func tile(level: Int, column: Int, row: Int) throws -> Bitmap {
        let rect = layout.storedRect(level: level, column: column, row: row)
        guard rect.width > 0, rect.height > 0 else {
            throw ImagingError(.io, "no tile \(column)_\(row) at level \(level)")
        }
        let bitmap = Bitmap(width: rect.width, height: rect.height)
        let canvas = Canvas(target: bitmap)
        // Level pixel p covers image pixels [p·f, (p+1)·f).
        let f = Double(1 << (layout.maxLevel - level))
        let cell = Double(cellSize) / f
        let firstCol = Int(Double(rect.x) / cell), lastCol = Int(Double(rect.x + rect.width - 1) / cell)
        let firstRow = Int(Double(rect.y) / cell), lastRow = Int(Double(rect.y + rect.height - 1) / cell)
        for r in firstRow...lastRow {
            for c in firstCol...lastCol {
                let cellRect = Rect(x: Double(c) * cell - Double(rect.x), y: Double(r) * cell - Double(rect.y), width: cell, height: cell)
                canvas.fill(cellRect, color: Self.cellColor(column: c, row: r))
            }
        }
        let frame = Color(red: 0, green: 0, blue: 0, alpha: 70)
        canvas.stroke(Rect(x: 0, y: 0, width: Double(rect.width), height: Double(rect.height)), color: frame)
        fonts.withFont { font in
            let label = "\(level)  \(column),\(row)"
            canvas.fill(Rect(x: 4, y: 4, width: font.width(of: label) + 8, height: font.lineHeight + 4),
                        color: Color(red: 255, green: 255, blue: 255, alpha: 170))
            canvas.drawText(label, at: Point(x: 8, y: 6 + font.ascender), font: font, color: Color(rgb: 0x202020))
        }
        return bitmap
    }
}

/// Fonts for worker threads: FreeType faces are not thread-safe, so each draw borrows one.
final class FontPool: @unchecked Sendable {
    private let lock = ThreadMutex()
    private var free: [Font] = []
    private let pixelSize: Int
    private var unavailable = false

    init(pixelSize: Int) { self.pixelSize = pixelSize }

    /// Runs `body` with a font of its own; skipped when no font is installed.
    func withFont(_ body: (Font) -> Void) {
        let font: Font? = lock.withLock {
            if let font = free.popLast() { return font }
            if unavailable { return nil }
            return nil
        } ?? makeFont()
        guard let font else { return }
        body(font)
        lock.withLock { free.append(font) }
    }

    private func makeFont() -> Font? {
        if let font = try? Font.standard(pixelSize: pixelSize) { return font }
        lock.withLock { unavailable = true }
        return nil
    }
}
