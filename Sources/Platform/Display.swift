import Graphics

/// A screen the app draws on: DRM/KMS, fbdev, or an in-memory headless screen.
///
/// The app draws each frame into `frameBuffer` (ordinary cached memory, in the logical
/// orientation after rotation), then calls `present(damage:)` with the rectangles it changed.
/// A backend copies only those rectangles to the scanout buffer (rotating them if needed) and
/// shows the result on the next vblank.
public protocol Display: AnyObject {
    /// A short human name for logs ("headless 1920x1080", "DRM card0 HDMI-A-1 1920x1080@60").
    var name: String { get }
    /// Logical size the UI lays out for (after rotation), in pixels.
    var size: Size { get }
    /// Where the next frame is drawn. Keeps its pixels between frames, so only damage is redrawn.
    var frameBuffer: Bitmap { get }
    /// False while a page flip is still pending or the display is not ours (DRM master lost,
    /// disconnected): drawing then waits instead of tearing or failing.
    var isReadyForFrame: Bool { get }
    /// Shows the frame; `damage` is in logical pixels. An empty list means nothing changed.
    func present(damage: [PixelRect]) throws
}
