import Graphics

/// How big the on-screen controls (page dots, buttons, labels, the filmstrip) are drawn:
/// `scale` screen pixels per chrome point, where the album's sizes are given in points.
///
/// The rule, so a control has the same size to the eye on a 7" panel at arm's length and on a
/// TV across the room:
/// - Where the screen reports its size (DRM/EDID millimetres), a point is 1/160 inch (0.159 mm,
///   Android's density-independent pixel): a 7" 1024×600 panel gets 1.05, a 5" 1080p panel 2.7.
/// - Never smaller than the screen's short side over 720 (a 10-foot UI scales with the
///   picture): a 1080p TV gets 1.5, a 4K TV 3, whatever its millimetres say; a portrait screen
///   counts its width.
/// - Clamped to 0.75…4, so a bogus EDID (1×1 mm) cannot make controls absurd.
public struct ChromeMetrics: Hashable, Sendable {
    /// Millimetres per chrome point (1/160 inch).
    public static let millimetresPerPoint = 25.4 / 160
    /// The screen's short side at which a point is one pixel when the size is unknown.
    public static let referenceHeight = 720.0
    public static let scaleRange = 0.75...4.0

    public let scale: Double

    public init(scale: Double = 1) {
        self.scale = min(Self.scaleRange.upperBound, max(Self.scaleRange.lowerBound, scale))
    }

    /// - Parameters:
    ///   - screen: the screen in pixels (as laid out, after rotation).
    ///   - millimetres: its visible size in millimetres, if known (either orientation).
    public init(screen: Size, millimetres: Size?) {
        guard !screen.isEmpty else { self.init(); return }
        let byHeight = min(screen.width, screen.height) / Self.referenceHeight
        var byDensity = 0.0
        if var mm = millimetres, mm.width > 0, mm.height > 0 {
            // A size reported in the panel's own orientation (a touch panel, a rotated screen)
            // is turned to the screen's.
            if (mm.width >= mm.height) != (screen.width >= screen.height) { mm = Size(width: mm.height, height: mm.width) }
            let pixelsPerMillimetre = (screen.width / mm.width + screen.height / mm.height) / 2
            byDensity = pixelsPerMillimetre * Self.millimetresPerPoint
        }
        self.init(scale: max(byHeight, byDensity))
    }

    /// `points` in screen pixels, rounded to whole pixels (crisp edges for straight sides).
    public func pixels(_ points: Double) -> Double { (points * scale).rounded() }
}
