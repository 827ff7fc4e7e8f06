import Testing
import Graphics
@testable import Widgets

/// Issue 30 item 6: thumbnails in points, and whole rows on the screen at rest. The table is the
/// kiosk's rule (KioskApp.applyGridMetrics): 140 points at the screen's ChromeMetrics scale,
/// 8 points of spacing.
@Suite struct GridFitTests {
    struct Panel: CustomStringConvertible {
        var name: String
        var pixels: Size
        var millimetres: Size?
        var columns: Int
        var rows: Int
        var description: String { name }
    }

    static let panels: [Panel] = [
        Panel(name: "7-inch 800x480", pixels: Size(width: 800, height: 480), millimetres: Size(width: 154, height: 86), columns: 7, rows: 4),
        Panel(name: "7-inch 1024x600", pixels: Size(width: 1024, height: 600), millimetres: Size(width: 154, height: 86), columns: 7, rows: 4),
        Panel(name: "10-inch 1280x800", pixels: Size(width: 1280, height: 800), millimetres: Size(width: 217, height: 136), columns: 8, rows: 5),
        Panel(name: "1080p TV (no size)", pixels: Size(width: 1920, height: 1080), millimetres: nil, columns: 9, rows: 5),
        Panel(name: "7-inch portrait 480x800", pixels: Size(width: 480, height: 800), millimetres: Size(width: 86, height: 154), columns: 3, rows: 5),
        Panel(name: "320x240 (no size)", pixels: Size(width: 320, height: 240), millimetres: nil, columns: 3, rows: 2),
        Panel(name: "240x320 portrait (no size)", pixels: Size(width: 240, height: 320), millimetres: nil, columns: 3, rows: 4),
        Panel(name: "4K TV (no size)", pixels: Size(width: 3840, height: 2160), millimetres: nil, columns: 9, rows: 5),
    ]

    static func layout(for panel: Panel, itemCount: Int = 100) -> GridLayout {
        let metrics = ChromeMetrics(screen: panel.pixels, millimetres: panel.millimetres)
        return GridLayout(width: panel.pixels.width, height: panel.pixels.height, itemCount: itemCount,
                          preferredCellSize: 140 * metrics.scale, spacing: max(2, metrics.pixels(8)))
    }

    @Test("Columns and rows for each panel", arguments: panels)
    func columnsAndRows(panel: Panel) {
        let layout = Self.layout(for: panel)
        #expect(layout.columns == panel.columns)
        let visibleRows = Int((panel.pixels.height / layout.rowPitch).rounded(.down))
        #expect(visibleRows == panel.rows)
    }

    @Test("Whole rows fill the height exactly: no thumbnail cut at the bottom at rest", arguments: panels)
    func wholeRows(panel: Panel) {
        let layout = Self.layout(for: panel)
        let rows = Double(panel.rows)
        #expect(abs(rows * layout.cellSize + (rows + 1) * layout.rowSpacing - panel.pixels.height) < 1e-6)
        // The last visible cell ends inside the screen, the next row starts below it.
        let lastVisible = layout.frame(of: panel.rows * layout.columns - 1)
        #expect(lastVisible.maxY <= panel.pixels.height + 1e-6)
        #expect(layout.frame(of: panel.rows * layout.columns).minY >= panel.pixels.height - 1e-6)
        // Row gaps stay close to the column gaps.
        #expect(layout.rowSpacing >= layout.spacing * 0.5 && layout.rowSpacing <= layout.spacing * 2.5)
        // Columns fill the width.
        #expect(abs(Double(layout.columns) * layout.cellSize + Double(layout.columns + 1) * layout.spacing - panel.pixels.width) < 1e-6)
    }

    @Test("Thumbnails are about the same size to the eye on panels that report their size")
    func physicalSize() {
        for panel in Self.panels {
            guard let mm = panel.millimetres else { continue }
            let layout = Self.layout(for: panel)
            let pixelsPerMillimetre = max(panel.pixels.width, panel.pixels.height) / max(mm.width, mm.height)
            let edge = layout.cellSize / pixelsPerMillimetre
            #expect(edge >= 17 && edge <= 30, "\(panel): \(edge) mm")
        }
    }

    @Test("No tile larger than the screen, even when asked for huge thumbnails")
    func neverLargerThanTheScreen() {
        for size in [Size(width: 320, height: 240), Size(width: 240, height: 320), Size(width: 1920, height: 200)] {
            let layout = GridLayout(width: size.width, height: size.height, itemCount: 10, preferredCellSize: 2048, spacing: 6)
            #expect(layout.cellSize <= size.height - 2 * layout.rowSpacing + 1e-6, "\(size)")
            #expect(layout.cellSize <= size.width, "\(size)")
        }
    }

    @Test("Hit tests and the visible range follow the row gap")
    func hitTestsWithRowGap() {
        let layout = Self.layout(for: Self.panels[0])
        for index in [0, 6, 7, 27, 28] {
            let frame = layout.frame(of: index)
            #expect(layout.index(at: frame.center) == index)
            #expect(layout.nearestIndex(to: frame.center) == index)
        }
        let visible = layout.indices(intersecting: Rect(x: 0, y: 0, width: 800, height: 480))
        #expect(visible == 0..<28)
    }
}
