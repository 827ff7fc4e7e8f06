import Graphics
import Platform

/// Where a recorded position is on a screen. Recordings store panel positions normalised to
/// 0...1 (what libinput reports after calibration, before the display rotation), so the same
/// file replays on any screen size; the rotation then turns them into logical positions, as
/// LibinputSource does live.
public struct RecordingGeometry: Sendable, Equatable {
    /// The logical screen size the UI lays out in.
    public var logicalSize: Size
    public var rotation: Rotation

    public init(logicalSize: Size, rotation: Rotation) {
        self.logicalSize = logicalSize
        self.rotation = rotation
    }

    /// The panel's size in pixels (before rotation).
    public var panelSize: Size {
        rotation.swapsAxes ? Size(width: logicalSize.height, height: logicalSize.width) : logicalSize
    }

    /// A normalised panel position as a logical screen point.
    public func logicalPoint(x: Double, y: Double) -> Point {
        let panel = panelSize
        return rotation.logicalPoint(Point(x: x * panel.width, y: y * panel.height),
                                     deviceWidth: panel.width, deviceHeight: panel.height)
    }

    /// A logical screen point as a panel pixel position (the inverse of the rotation).
    public func panelPoint(_ p: Point) -> Point {
        let panel = panelSize
        switch rotation {
        case .none: return p
        case .clockwise90: return Point(x: panel.width - p.y, y: p.x)
        case .upsideDown: return Point(x: panel.width - p.x, y: panel.height - p.y)
        case .clockwise270: return Point(x: p.y, y: panel.height - p.x)
        }
    }

    /// A logical screen point as a normalised panel position.
    public func normalised(_ p: Point) -> (x: Double, y: Double) {
        let q = panelPoint(p), panel = panelSize
        return (q.x / panel.width, q.y / panel.height)
    }
}

/// Key names in recordings ("escape", "left", "code-30").
enum RecordedKey {
    static func name(_ key: Key) -> String {
        switch key {
        case .left: return "left"
        case .right: return "right"
        case .up: return "up"
        case .down: return "down"
        case .enter: return "enter"
        case .escape: return "escape"
        case .q: return "q"
        case .quitChord: return "quit-chord"
        case .other(let code): return "code-\(code)"
        }
    }

    static func key(_ name: String) -> Key? {
        switch name {
        case "left": return .left
        case "right": return .right
        case "up": return .up
        case "down": return .down
        case "enter": return .enter
        case "escape": return .escape
        case "q": return .q
        case "quit-chord": return .quitChord
        default:
            guard name.hasPrefix("code-"), let code = UInt32(name.dropFirst(5)) else { return nil }
            return .other(code)
        }
    }
}
