import Graphics
import UI

/// Lines of information in the screen's corners (the clock, a photo's date, caption, place),
/// over whatever is beneath. Each corner is a block of its own, sized to its text, on a
/// translucent dark backing with shadowed white text, so it reads on a bright photo as on a dark
/// one; a change redraws only that corner. Touches pass through to the screen beneath.
public final class InfoOverlayView: View {
    public enum Corner: CaseIterable, Sendable { case topLeft, topRight, bottomLeft, bottomRight }

    public struct Line: Equatable, Sendable {
        public var text: String
        /// Drawn in the large font (the time).
        public var isLarge: Bool
        public init(_ text: String, isLarge: Bool = false) {
            self.text = text
            self.isLarge = isLarge
        }
    }

    public var font: Font? { didSet { relayout() } }
    public var largeFont: Font? { didSet { relayout() } }
    /// Distance of the blocks from the screen's edges.
    public var margin = 16.0 { didSet { relayout() } }
    /// How visible the blocks are, 0...1 (the album fades them).
    public var opacity: Double = 1 {
        didSet { for block in blocks.values { block.alpha = opacity } }
    }

    private var blocks: [Corner: OverlayBlockView] = [:]

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        backgroundColor = nil
    }

    /// The lines of `corner`, top to bottom; none removes its block.
    public func setLines(_ lines: [Line], in corner: Corner) {
        if lines.isEmpty {
            blocks.removeValue(forKey: corner)?.removeFromSuperview()
            return
        }
        let block = blocks[corner] ?? {
            let block = OverlayBlockView()
            block.isUserInteractionEnabled = false
            block.alpha = opacity
            addSubview(block)
            blocks[corner] = block
            return block
        }()
        guard block.lines != lines else { return }
        block.lines = lines
        place(block, in: corner)
    }

    public func lines(in corner: Corner) -> [Line] { blocks[corner]?.lines ?? [] }

    /// Where `corner`'s block is drawn (nil when it has no lines): for tests and the app's layout.
    public func blockFrame(in corner: Corner) -> Rect? { blocks[corner]?.frame }

    private func relayout() {
        for (corner, block) in blocks { place(block, in: corner) }
    }

    public override func layoutSubviews() { relayout() }

    private func place(_ block: OverlayBlockView, in corner: Corner) {
        block.font = font
        block.largeFont = largeFont
        block.alignsRight = corner == .topRight || corner == .bottomRight
        // At most 40% of the width: the bottom edge's centre belongs to the album's page indicator.
        let size = block.preferredSize(maxWidth: max(0, bounds.width * 0.4 - margin))
        let x = block.alignsRight ? bounds.maxX - margin - size.width : bounds.minX + margin
        let y = corner == .topLeft || corner == .topRight ? bounds.minY + margin : bounds.maxY - margin - size.height
        let frame = Rect(x: x, y: y, width: size.width, height: size.height)
        if block.frame != frame { block.frame = frame }
        block.setNeedsDisplay()
    }

    /// Touches go to the screen beneath, the blocks included: the overlay only informs.
    public override func hitTest(_ point: Point) -> View? { nil }
}

/// One corner's lines on their backing.
final class OverlayBlockView: View {
    /// As dark as the album's page indicator pill: white text on a white photo still reads (about 4.5:1).
    static let backing = Color(rgb: 0x000000, alpha: 140)
    static let shadow = Color(rgb: 0x000000, alpha: 200)
    static let padding = 10.0

    var lines: [InfoOverlayView.Line] = []
    var font: Font?
    var largeFont: Font?
    var alignsRight = false

    private func font(for line: InfoOverlayView.Line) -> Font? { line.isLarge ? (largeFont ?? font) : font }

    /// The lines as drawn: each wrapped at spaces to `maxWidth` (less padding), so on a small
    /// screen "Friday 11/27/2026" becomes two lines rather than "Friday 11/2…".
    private var shownLines: [InfoOverlayView.Line] = []

    func preferredSize(maxWidth: Double) -> Size {
        var width = 0.0, height = 0.0
        shownLines = []
        for line in lines {
            guard let font = font(for: line) else { continue }
            for part in font.wrapped(line.text, toFit: max(1, maxWidth - 2 * Self.padding)) {
                var shown = line
                shown.text = part
                shownLines.append(shown)
                width = max(width, font.width(of: part))
                height += font.lineHeight
            }
        }
        return Size(width: min(maxWidth, width + 2 * Self.padding).rounded(.up), height: (height + 2 * Self.padding).rounded(.up))
    }

    override func draw(in context: DrawContext) {
        guard !lines.isEmpty else { return }
        context.fill(bounds, color: Self.backing)
        var top = bounds.minY + Self.padding
        let textWidth = bounds.width - 2 * Self.padding
        for line in shownLines.isEmpty ? lines : shownLines {
            guard let font = font(for: line) else { continue }
            let text = font.truncated(line.text, toFit: textWidth)
            let width = font.width(of: text)
            let x = alignsRight ? bounds.maxX - Self.padding - width : bounds.minX + Self.padding
            let baseline = top + font.ascender
            // A one-pixel shadow keeps thin strokes readable where the backing is light enough
            // to let a bright photo through.
            _ = context.drawText(text, at: Point(x: x + 1, y: baseline + 1), font: font, color: Self.shadow)
            _ = context.drawText(text, at: Point(x: x, y: baseline), font: font, color: .white)
            top += font.lineHeight
        }
    }
}
