import Graphics

/// How the panel is mounted: the logical image is turned clockwise by this much on the device.
/// `size`/`frameBuffer` of a Display are logical; the scanout buffer is in device orientation.
public enum Rotation: Int, Sendable, CaseIterable, CustomStringConvertible {
    case none = 0, clockwise90 = 90, upsideDown = 180, clockwise270 = 270

    /// Parses "0", "90", "180", "270".
    public init?(degrees: Int) {
        self.init(rawValue: ((degrees % 360) + 360) % 360)
    }

    public var description: String { "\(rawValue)" }

    /// True when width and height swap between device and logical orientation.
    public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The logical size for a device (panel) of `width`×`height`.
    public func logicalSize(deviceWidth width: Int, deviceHeight height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// Where a logical rectangle lands on the device. `logical` is the logical screen size.
    public func deviceRect(_ r: PixelRect, logicalWidth lw: Int, logicalHeight lh: Int) -> PixelRect {
        switch self {
        case .none: return r
        case .clockwise90: return PixelRect(x: lh - r.maxY, y: r.x, width: r.height, height: r.width)
        case .upsideDown: return PixelRect(x: lw - r.maxX, y: lh - r.maxY, width: r.width, height: r.height)
        case .clockwise270: return PixelRect(x: r.y, y: lw - r.maxX, width: r.height, height: r.width)
        }
    }

    /// A device point (a touch in panel coordinates) in logical coordinates.
    /// `deviceWidth`/`deviceHeight` are the panel's size in pixels.
    public func logicalPoint(_ p: Point, deviceWidth dw: Double, deviceHeight dh: Double) -> Point {
        switch self {
        case .none: return p
        case .clockwise90: return Point(x: p.y, y: dw - p.x)
        case .upsideDown: return Point(x: dw - p.x, y: dh - p.y)
        case .clockwise270: return Point(x: dh - p.y, y: p.x)
        }
    }

    /// The affine map from a device pixel position to the logical position it shows, as rows
    /// (a, b, c; d, e, f): logical x = a·dx + b·dy + c, logical y = d·dx + e·dy + f.
    /// This is the transform pixman applies to the source when copying logical → device.
    func deviceToLogicalMatrix(logicalWidth lw: Double, logicalHeight lh: Double) -> [Double] {
        switch self {
        case .none: return [1, 0, 0, 0, 1, 0]
        case .clockwise90: return [0, 1, 0, -1, 0, lh]
        case .upsideDown: return [-1, 0, lw, 0, -1, lh]
        case .clockwise270: return [0, -1, lw, 1, 0, 0]
        }
    }
}
