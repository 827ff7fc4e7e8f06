import Graphics
import UI

/// Where the album is: a row of dots for a few photos, "12 / 340" for many (or a thin progress
/// bar when no font could be loaded). Drawn on a dark translucent pill so it reads on any photo.
public final class PageIndicatorView: View {
    /// Up to this many pages get dots.
    public static let maximumDots = 12
    static let dot = 8.0
    static let dotGap = 10.0
    static let pillColor = Color(rgb: 0x000000, alpha: 140)

    public var pageCount = 0 {
        didSet { if pageCount != oldValue { setNeedsDisplay() } }
    }
    public var currentPage = 0 {
        didSet { if currentPage != oldValue { setNeedsDisplay() } }
    }
    public var font: Font?

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    public var usesDots: Bool { pageCount <= Self.maximumDots }

    /// "12 / 340" (1-based, as people count).
    public var text: String { "\(currentPage + 1) / \(pageCount)" }

    /// The size the indicator wants for its content.
    public var preferredSize: Size {
        if usesDots {
            return Size(width: Double(pageCount) * (Self.dot + Self.dotGap) + Self.dotGap, height: Self.dot + 2 * Self.dotGap)
        }
        guard let font else { return Size(width: 200, height: 24) }
        return Size(width: font.width(of: "\(pageCount) / \(pageCount)") + 32, height: font.lineHeight + 12)
    }

    public override func draw(in context: DrawContext) {
        guard pageCount > 1 else { return }
        let size = preferredSize
        let pill = Rect(x: bounds.midX - size.width / 2, y: bounds.midY - size.height / 2, width: size.width, height: size.height)
        context.fill(pill, color: Self.pillColor)
        if usesDots {
            for i in 0..<pageCount {
                let x = pill.minX + Self.dotGap + Double(i) * (Self.dot + Self.dotGap)
                let color = i == currentPage ? Color.white : Color(rgb: 0x707070)
                context.fill(Rect(x: x, y: pill.midY - Self.dot / 2, width: Self.dot, height: Self.dot), color: color)
            }
        } else if let font {
            context.drawText(text, centeredIn: pill, font: font, color: .white)
        } else {
            let track = pill.insetBy(dx: 12, dy: pill.height / 2 - 2)
            context.fill(track, color: Color(rgb: 0x505050))
            let fraction = Double(currentPage + 1) / Double(pageCount)
            context.fill(Rect(x: track.minX, y: track.minY, width: track.width * fraction, height: track.height), color: .white)
        }
    }
}
