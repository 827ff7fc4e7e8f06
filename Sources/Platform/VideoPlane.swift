import Graphics

/// A playing clip's frames shown on a plane of their own (a KMS overlay plane) instead of being
/// copied into the frame: the display controller puts them over the screen's own buffer, so a
/// frame costs one conversion into the plane's buffer and no redraw of the screen under it.
///
/// The app asks `accepts` every time it lays a frame out, because the answer depends on where
/// the frame is (a plane here does not scale, rotate or blend) and on the driver; when it says
/// no, the app draws the frame itself as before. `show` says what the plane is to show with the
/// next `Display.present` (nil: nothing), which the app calls right after, even with no damage:
/// the two go to the screen together, in one vblank.
public protocol VideoPlane: AnyObject {
    /// Whether `content` can go on the plane as it is.
    func accepts(_ content: VideoPlaneContent) -> Bool
    /// What the plane shows from the next present on (nil: nothing).
    func show(_ content: VideoPlaneContent?)
}

/// Part of a decoded frame and where it goes on the screen, one frame pixel to one screen pixel.
public struct VideoPlaneContent: @unchecked Sendable {
    public let frame: VideoFrame
    /// The part of the frame shown, in the frame's pixels.
    public let source: PixelRect
    /// Where on the screen, in the display's logical pixels; the same size as `source`.
    public let destination: PixelRect

    public init(frame: VideoFrame, source: PixelRect, destination: PixelRect) {
        self.frame = frame
        self.source = source
        self.destination = destination
    }
}
