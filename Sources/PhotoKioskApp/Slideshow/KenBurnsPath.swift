import Basics
import Graphics
import Imaging

/// The Ken Burns effect as geometry: which part of a slide fills the screen at each moment of a
/// photo's time on screen. The slide is composed once, `margin` times larger than the screen;
/// the path starts on the whole slide (the photo as it would show without the effect) and
/// zooms in, at constant speed, to a screen-aspect window around a point of interest, ending at
/// one slide pixel per screen pixel (never enlarged, so never soft).
///
/// Every viewport lies inside the slide (both ends do, and a blend of two rectangles inside a
/// rectangle stays inside), so no edge ever shows; its size shrinks and its centre moves
/// monotonically. Drawing it is one bilinear pixman scale of the slide into the screen; the
/// viewport moves by fractions of a pixel each frame (no snapping, which would stutter).
public struct KenBurnsPath: Equatable, Sendable {
    /// How much larger than the screen a Ken Burns slide is composed (and so the zoom over one
    /// photo): 1.15 is a slow, noticeable move that costs 1.3 times a plain slide's memory.
    public static let margin = 1.15

    /// The viewport at the start and the end, in slide pixels.
    public let start: Rect
    public let end: Rect

    /// - Parameters:
    ///   - slide: the composed slide's size (the screen's aspect).
    ///   - screen: the screen's size; the end viewport is never smaller (no enlargement).
    ///   - focus: the point of interest, in slide pixels; the end viewport is centred on it as
    ///     far as the edges allow.
    ///   - content: where the photo lies on the slide; along each axis where the photo is at
    ///     least as long as the end viewport, the viewport ends inside it (the zoom goes into the
    ///     picture, not into the bars beside it). nil: the whole slide.
    public init(slide: Size, screen: Size, focus: Point, content: Rect? = nil) {
        start = Rect(size: slide)
        let zoom = max(1, min(slide.width / max(1, screen.width), slide.height / max(1, screen.height)))
        let w = slide.width / zoom, h = slide.height / zoom
        let area = content?.intersection(start) ?? start
        func place(_ centre: Double, _ length: Double, within low: Double, _ high: Double, slide extent: Double) -> Double {
            let origin = high - low >= length
                ? min(max(centre - length / 2, low), high - length)
                : (low + high) / 2 - length / 2
            return min(max(origin, 0), extent - length)
        }
        end = Rect(x: place(focus.x, w, within: area.minX, area.maxX, slide: slide.width),
                   y: place(focus.y, h, within: area.minY, area.maxY, slide: slide.height),
                   width: w, height: h)
    }

    /// The viewport at `fraction` (0...1, clamped) of the photo's time on screen: a linear blend,
    /// so the zoom and the pan keep one speed (an eased start would read as a stutter).
    public func viewport(at fraction: Double) -> Rect {
        let t = min(1, max(0, fraction.isFinite ? fraction : 0))
        return Rect(x: start.minX + (end.minX - start.minX) * t,
                    y: start.minY + (end.minY - start.minY) * t,
                    width: start.width + (end.width - start.width) * t,
                    height: start.height + (end.height - start.height) * t)
    }

    /// A repeatable point of interest for `photo` inside `area` (where the photo lies on the
    /// slide): chosen by the slideshow's seed and the file's name, in the middle half of the
    /// photo so the zoom heads into the picture rather than into a corner of sky. The same photo
    /// with the same seed always moves the same way (tests, replays); no clock is involved.
    public static func focus(for photo: RawPath, seed: UInt64, in area: Rect) -> Point {
        var generator = SeededRandom(seed: seed ^ stableHash(photo.bytes))
        let fx = Double.random(in: 0.25...0.75, using: &generator)
        let fy = Double.random(in: 0.25...0.75, using: &generator)
        return Point(x: area.minX + area.width * fx, y: area.minY + area.height * fy)
    }

    /// FNV-1a: the same on every run (Swift's `Hasher` is seeded per process).
    static func stableHash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01B3
        }
        return hash
    }
}
