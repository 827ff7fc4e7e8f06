import Graphics

/// How device positions become logical screen positions: libinput scales absolute devices to
/// the panel's pixel size (after its calibration matrix), then the rotation turns panel pixels
/// into the logical pixels the UI lays out in.
public struct ScreenMapping: Sendable, Equatable {
    /// The panel (scanout) size in pixels, before rotation.
    public var deviceWidth: Int
    public var deviceHeight: Int
    public var rotation: Rotation

    public init(deviceWidth: Int, deviceHeight: Int, rotation: Rotation = .none) {
        self.deviceWidth = deviceWidth
        self.deviceHeight = deviceHeight
        self.rotation = rotation
    }

    /// The mapping for a logical size as a Display reports it.
    public init(logicalSize: Size, rotation: Rotation) {
        let w = Int(logicalSize.width), h = Int(logicalSize.height)
        self.init(deviceWidth: rotation.swapsAxes ? h : w, deviceHeight: rotation.swapsAxes ? w : h, rotation: rotation)
    }

    public var logicalWidth: Int { rotation.swapsAxes ? deviceHeight : deviceWidth }
    public var logicalHeight: Int { rotation.swapsAxes ? deviceWidth : deviceHeight }

    /// A panel point in logical coordinates.
    public func logical(_ devicePoint: Point) -> Point {
        rotation.logicalPoint(devicePoint, deviceWidth: Double(deviceWidth), deviceHeight: Double(deviceHeight))
    }

    /// Keeps a logical point on the screen (a mouse must not leave it).
    public func clamped(_ p: Point) -> Point {
        Point(x: min(max(p.x, 0), Double(logicalWidth - 1)), y: min(max(p.y, 0), Double(logicalHeight - 1)))
    }
}
