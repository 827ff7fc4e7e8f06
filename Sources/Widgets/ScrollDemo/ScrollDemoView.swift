import Graphics
import UI

/// A demo of the scroll view: a 4000×4000 checkerboard labelled with coordinates that scrolls,
/// flings, bounces and zooms (pinch; double tap zooms in ×1.5, two-finger tap zooms out, as in
/// ScrollViewSuite's TapToZoom). `photokiosk demo scroll` shows it.
public final class ScrollDemoView: View {
    public static let boardSize = 4000.0
    /// ScrollViewSuite's ZOOM_STEP.
    public static let zoomStep = 1.5

    public let scrollView = ScrollView()
    public let board = CheckerboardView(size: boardSize, cell: 200)

    public override init(frame: Rect) {
        super.init(frame: frame)
        backgroundColor = .darkGray
        scrollView.maximumZoomScale = 4
        scrollView.addSubview(board)
        scrollView.viewForZooming = board
        addSubview(scrollView)

        let doubleTap = TapGestureRecognizer(taps: 2) { [weak self] tap in
            guard let self else { return }
            self.zoom(by: Self.zoomStep, around: tap.location(in: self.board))
        }
        let twoFingerTap = TapGestureRecognizer(taps: 1, touches: 2) { [weak self] tap in
            guard let self else { return }
            self.zoom(by: 1 / Self.zoomStep, around: tap.location(in: self.board))
        }
        board.addGestureRecognizer(doubleTap)
        board.addGestureRecognizer(twoFingerTap)
        layoutSubviews()
        scrollView.zoomScale = scrollView.minimumZoomScale
    }

    public override func layoutSubviews() {
        let wasAtMinimum = scrollView.zoomScale <= scrollView.minimumZoomScale
        scrollView.frame = Rect(size: bounds.size)
        scrollView.minimumZoomScale = min(1, min(bounds.width, bounds.height) / Self.boardSize)
        if wasAtMinimum { scrollView.zoomScale = scrollView.minimumZoomScale }
    }

    /// Zooms so that `point` (board coordinates) stays the centre of a rect `step` times smaller.
    private func zoom(by step: Double, around point: Point) {
        let scale = scrollView.zoomScale * step
        let size = Size(width: scrollView.bounds.width / scale, height: scrollView.bounds.height / scale)
        scrollView.zoom(to: Rect(origin: point - Point(x: size.width / 2, y: size.height / 2), size: size), animated: true)
    }
}

/// A square board of alternating cells, each labelled "col,row" while big enough to read.
public final class CheckerboardView: View {
    public let cell: Double
    public static let light = Color(rgb: 0xE8E4D8)
    public static let dark = Color(rgb: 0x5A7D9A)
    /// Loaded once; nil without fonts-dejavu-core (the board then has no labels).
    private lazy var font: Font? = try? Font.standard(pixelSize: 14)

    public init(size: Double, cell: Double) {
        self.cell = cell
        super.init(frame: Rect(x: 0, y: 0, width: size, height: size))
    }

    /// The colour of the cell containing `point` (board coordinates).
    public func color(at point: Point) -> Color {
        let col = Int((point.x / cell).rounded(.down)), row = Int((point.y / cell).rounded(.down))
        return (col + row) % 2 == 0 ? Self.light : Self.dark
    }

    public override func draw(in context: DrawContext) {
        let area = context.dirtyRect.intersection(bounds)
        guard !area.isEmpty else { return }
        let firstCol = Int((area.minX / cell).rounded(.down)), lastCol = Int(((area.maxX - 0.001) / cell).rounded(.down))
        let firstRow = Int((area.minY / cell).rounded(.down)), lastRow = Int(((area.maxY - 0.001) / cell).rounded(.down))
        // Labels only when the glyphs (drawn at their pixel size) fit in a cell on screen.
        let labelled = cell * context.scale >= 60 ? font : nil
        for row in firstRow...lastRow {
            for col in firstCol...lastCol {
                let rect = Rect(x: Double(col) * cell, y: Double(row) * cell, width: cell, height: cell)
                let isLight = (col + row) % 2 == 0
                context.fill(rect, color: isLight ? Self.light : Self.dark)
                if let labelled {
                    context.drawText("\(col),\(row)", at: Point(x: rect.minX + 6 / context.scale, y: rect.minY + 18 / context.scale),
                                     font: labelled, color: isLight ? .darkGray : .white)
                }
            }
        }
    }
}
