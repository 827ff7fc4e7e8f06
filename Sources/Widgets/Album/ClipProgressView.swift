import Graphics
import UI

/// The thin bar along the bottom of a playing clip: how far it has played, as phones show it.
/// Opaque, so a new position repaints only its own few rows.
final class ClipProgressView: View {
    /// 0...1; values outside are clamped.
    var fraction = 0.0 {
        didSet { if fraction != oldValue { setNeedsDisplay() } }
    }

    static let trackColor = Color(rgb: 0x505050)
    static let playedColor = Color(rgb: 0xF0F0F0)

    override func draw(in context: DrawContext) {
        let played = (bounds.width * min(max(fraction, 0), 1)).rounded()
        context.fill(Rect(x: 0, y: 0, width: played, height: bounds.height), color: Self.playedColor)
        context.fill(Rect(x: played, y: 0, width: bounds.width - played, height: bounds.height), color: Self.trackColor)
    }

    override var isOpaque: Bool { true }
}
