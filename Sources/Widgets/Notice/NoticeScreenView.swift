import Graphics
import UI

/// A whole screen of plain words instead of photos: what is wrong and what to do (no photos to
/// show), or the frame's own details (the info screen). Optionally a QR code a phone can scan,
/// with its caption (the address), and buttons along the bottom.
///
/// Sizes are in chrome points (`metrics`); the text shrinks until everything fits, so a
/// 320x240 panel shows the same words as a TV, smaller.
public final class NoticeScreenView: View {
    public struct Action {
        public var title: String
        public var handler: () -> Void
        public init(title: String, handler: @escaping () -> Void) {
            self.title = title
            self.handler = handler
        }
    }

    public var title: String { didSet { if title != oldValue { setNeedsDisplay() } } }
    /// Each one a paragraph, wrapped to the width.
    public var paragraphs: [String] { didSet { if paragraphs != oldValue { setNeedsDisplay() } } }
    /// A code to scan (drawn with whole pixels per module), or nil.
    public var code: QRModules? { didSet { if code != oldValue { codeBitmap = nil; setNeedsDisplay() } } }
    /// Lines under the code (the address to type when the camera will not scan).
    public var codeCaption: [String] = [] { didSet { if codeCaption != oldValue { setNeedsDisplay() } } }
    public var actions: [Action] = [] { didSet { setNeedsDisplay() } }
    public var metrics = ChromeMetrics() { didSet { if metrics != oldValue { setNeedsDisplay() } } }

    public static let background = Color(rgb: 0x15171C)
    static let titleColor = Color.white
    static let textColor = Color(rgb: 0xC9CDD6)
    static let buttonColor = Color(rgb: 0x3A3F4B)

    private var fonts: [Int: Font] = [:]
    private var boldFonts: [Int: Font] = [:]
    private var codeBitmap: Bitmap?

    public init(frame: Rect, title: String, paragraphs: [String]) {
        self.title = title
        self.paragraphs = paragraphs
        super.init(frame: frame)
        backgroundColor = Self.background
        addGestureRecognizer(TapGestureRecognizer { [weak self] tap in
            guard let self, tap.state == .ended else { return }
            let point = tap.location(in: self)
            let layout = self.layout()
            if let hit = layout.buttons.firstIndex(where: { $0.contains(point) }), hit < self.actions.count {
                self.actions[hit].handler()
            }
        })
    }

    // MARK: Layout

    /// Where everything goes, for drawing and for hit tests (bounds coordinates).
    struct Layout {
        var titleFont: Font?
        var bodyFont: Font?
        var captionFont: Font?
        var titleOrigin = Point(x: 0, y: 0)
        var bodyLines: [(text: String, origin: Point)] = []
        var codeFrame: Rect?
        var moduleSize = 0
        var captionLines: [(text: String, origin: Point)] = []
        var buttons: [Rect] = []
        /// Whether all the words fit at the smallest size (else the last lines are left out).
        var fits = true
    }

    /// The text column and, beside it (landscape) or under it (portrait), the code.
    func layout() -> Layout {
        var result = Layout()
        let size = bounds.size
        guard size.width > 0, size.height > 0 else { return result }
        let shortSide = min(size.width, size.height)
        let margin = min(metrics.pixels(24), (shortSide * 0.05).rounded())
        let gap = min(metrics.pixels(16), (shortSide * 0.04).rounded())
        var area = bounds.insetBy(dx: margin, dy: margin)

        // Buttons along the bottom.
        if !actions.isEmpty {
            let height = min(metrics.pixels(44), (size.height * 0.16).rounded())
            let width = min(metrics.pixels(180), ((area.width - gap * Double(actions.count - 1)) / Double(actions.count)).rounded(.down))
            var x = area.maxX - width
            for _ in actions {
                result.buttons.insert(Rect(x: x, y: area.maxY - height, width: width, height: height), at: 0)
                x -= width + gap
            }
            area = Rect(x: area.minX, y: area.minY, width: area.width, height: area.height - height - gap)
        }

        // The code: as big as the room allows, up to about 6 cm on a typical panel.
        var textArea = area
        let captionSize = max(9, Int(min(metrics.pixels(14), (shortSide * 0.045).rounded())))
        let captionFont = font(captionSize, bold: false)
        result.captionFont = captionFont
        if let code {
            let landscape = size.width >= size.height * 1.1
            // Wrapped to the code's column (an address breaks after its "/"), never cut.
            let captionWidth = landscape ? area.width * 0.5 : area.width
            let caption = codeCaption.flatMap { captionFont?.wrapped($0, toFit: captionWidth) ?? [$0] }
            let captionHeight = Double(caption.count) * (captionFont?.lineHeight ?? 14) + (caption.isEmpty ? 0 : gap / 2)
            let room = landscape ? min(area.height - captionHeight, area.width * 0.42)
                                 : min(area.width, area.height * 0.45 - captionHeight)
            let side = min(room, metrics.pixels(240))
            let module = max(1, Int((side / Double(code.widthWithQuietZone)).rounded(.down)))
            let codeSide = Double(module * code.widthWithQuietZone)
            result.moduleSize = module
            var captionTop: Double
            if landscape {
                let columnWidth = max(codeSide, caption.map { captionFont?.width(of: $0) ?? 0 }.max() ?? 0)
                let columnWidthCapped = min(columnWidth, area.width * 0.5)
                let x = area.maxX - columnWidthCapped + (columnWidthCapped - codeSide) / 2
                let y = area.minY + max(0, (area.height - codeSide - captionHeight) / 2)
                result.codeFrame = Rect(x: x.rounded(), y: y.rounded(), width: codeSide, height: codeSide)
                captionTop = y + codeSide + gap / 2
                for line in caption {
                    let w = captionFont?.width(of: line) ?? 0
                    let lineX = area.maxX - columnWidthCapped + max(0, (columnWidthCapped - w) / 2)
                    result.captionLines.append((line, Point(x: lineX.rounded(), y: (captionTop + (captionFont?.ascender ?? 12)).rounded())))
                    captionTop += captionFont?.lineHeight ?? 14
                }
                textArea = Rect(x: area.minX, y: area.minY, width: area.width - columnWidthCapped - gap * 1.5, height: area.height)
            } else {
                let y = area.maxY - captionHeight - codeSide
                result.codeFrame = Rect(x: (area.midX - codeSide / 2).rounded(), y: y.rounded(), width: codeSide, height: codeSide)
                captionTop = y + codeSide + gap / 2
                for line in caption {
                    let w = captionFont?.width(of: line) ?? 0
                    result.captionLines.append((line, Point(x: (area.midX - w / 2).rounded(), y: (captionTop + (captionFont?.ascender ?? 12)).rounded())))
                    captionTop += captionFont?.lineHeight ?? 14
                }
                textArea = Rect(x: area.minX, y: area.minY, width: area.width, height: max(0, y - gap - area.minY))
            }
        }

        // The words: the largest size at which they all fit.
        let largest = Int(min(metrics.pixels(20), (shortSide * 0.07).rounded()))
        var bodySize = max(8, largest)
        while true {
            let titleSize = Int((Double(bodySize) * 1.5).rounded())
            let titleFont = font(titleSize, bold: true), bodyFont = font(bodySize, bold: false)
            result.titleFont = titleFont
            result.bodyFont = bodyFont
            guard let titleFont, let bodyFont else { return result }
            var y = textArea.minY + titleFont.ascender
            result.titleOrigin = Point(x: textArea.minX, y: y.rounded())
            y += -titleFont.descender + bodyFont.lineHeight * 0.6
            var lines: [(String, Point)] = []
            for paragraph in paragraphs {
                for line in bodyFont.wrapped(paragraph, toFit: textArea.width) {
                    lines.append((line, Point(x: textArea.minX, y: (y + bodyFont.ascender).rounded())))
                    y += bodyFont.lineHeight
                }
                y += bodyFont.lineHeight * 0.5
            }
            result.bodyLines = lines
            let bottom = y - bodyFont.lineHeight * 0.5
            let titleFits = titleFont.width(of: title) <= textArea.width
            if (bottom <= textArea.maxY && titleFits) || bodySize <= 8 {
                result.fits = bottom <= textArea.maxY && titleFits
                if !result.fits {
                    result.bodyLines = lines.filter { $0.1.y - bodyFont.descender <= textArea.maxY }
                } else {
                    // Centred in its column, not hanging from the top of a big screen.
                    let down = ((textArea.maxY - bottom) / 2).rounded(.down)
                    result.titleOrigin.y += down
                    result.bodyLines = lines.map { ($0.0, Point(x: $0.1.x, y: $0.1.y + down)) }
                }
                return result
            }
            bodySize -= 1
        }
    }

    private func font(_ pixelSize: Int, bold: Bool) -> Font? {
        if bold, let font = boldFonts[pixelSize] { return font }
        if !bold, let font = fonts[pixelSize] { return font }
        let font = try? Font.standard(pixelSize: pixelSize, bold: bold)
        if bold { boldFonts[pixelSize] = font } else { fonts[pixelSize] = font }
        return font
    }

    // MARK: Drawing

    public override func draw(in context: DrawContext) {
        let layout = layout()
        if let titleFont = layout.titleFont {
            context.drawText(titleFont.truncated(title, toFit: bounds.width - 2 * layout.titleOrigin.x),
                             at: layout.titleOrigin, font: titleFont, color: Self.titleColor)
        }
        if let bodyFont = layout.bodyFont {
            for line in layout.bodyLines { context.drawText(line.text, at: line.origin, font: bodyFont, color: Self.textColor) }
        }
        if let code, let frame = layout.codeFrame {
            if codeBitmap == nil || codeBitmap!.width != Int(frame.width) {
                codeBitmap = code.bitmap(moduleSize: layout.moduleSize)
            }
            if let codeBitmap { context.draw(codeBitmap, in: frame) }
        }
        if let captionFont = layout.captionFont {
            for line in layout.captionLines { context.drawText(line.text, at: line.origin, font: captionFont, color: Self.titleColor) }
        }
        for (index, button) in layout.buttons.enumerated() where index < actions.count {
            context.fillRoundedRect(button, radius: min(button.height / 2, metrics.pixels(10)), color: Self.buttonColor)
            if let font = layout.captionFont ?? layout.bodyFont {
                context.drawText(actions[index].title, centeredIn: button, font: font, color: .white)
            }
        }
    }

    /// Where the code is drawn, in bounds coordinates (tests crop it).
    public var codeFrame: Rect? { layout().codeFrame }
    /// The buttons' frames, in the order of `actions`.
    public var buttonFrames: [Rect] { layout().buttons }
    /// Whether every word fits on this screen.
    public var fitsAllText: Bool { layout().fits }
}
