import Graphics

/// A screen the app draws on: DRM/KMS, fbdev, or an in-memory headless screen.
///
/// The app draws each frame into `frameBuffer` (ordinary cached memory, in the logical
/// orientation after rotation), then calls `present(damage:)` with the rectangles it changed.
/// A backend copies only those rectangles to the scanout buffer (rotating them if needed) and
/// shows the result on the next vblank.
///
/// `size` and `frameBuffer` may change when a different screen is connected; the display then
/// sends `.needsFullRedraw`, after which the app re-reads both.
public protocol Display: AnyObject {
    /// A short human name for logs ("headless 1920x1080", "DRM card0 HDMI-A-1 1920x1080@60").
    var name: String { get }
    /// Logical size the UI lays out for (after rotation), in pixels.
    var size: Size { get }
    /// The visible area's size in millimetres in the same orientation as `size`, when the screen
    /// reports it (DRM connector / EDID); nil otherwise. The app sizes its controls from it.
    var physicalSize: Size? { get }
    /// Where the next frame is drawn. Keeps its pixels between frames, so only damage is redrawn.
    var frameBuffer: Bitmap { get }
    /// False while a page flip is still pending or the display is not ours (DRM master lost,
    /// disconnected): drawing then waits for `.frameDone` / `.needsFullRedraw`.
    var isReadyForFrame: Bool { get }
    /// Shows the frame; `damage` is in logical pixels. An empty list means nothing changed.
    /// Damage presented while not ready is kept and shown with the next frame.
    func present(damage: [PixelRect]) throws
    /// Starts delivering the display's events through `loop` (page-flip completions, hotplug,
    /// DRM master changes); `onEvent` runs on the loop thread.
    func attach(to loop: any EventLoopRegistry, onEvent: @escaping (DisplayEvent) -> Void) throws
    /// Gives the screen back (restores the console's CRTC). Safe to call more than once.
    func close()
    /// A plane a playing clip's frames can go on instead of into `frameBuffer` (VideoPlane);
    /// nil when the screen has none.
    var videoPlane: (any VideoPlane)? { get }
}

/// What a display tells the app between frames.
public enum DisplayEvent: Sendable, Equatable {
    /// The last presented frame is on screen: the next one may be presented.
    case frameDone
    /// The screen lost its contents (DRM master regained, screen reconnected, mode changed):
    /// re-read `size`/`frameBuffer`, lay out if the size changed, and redraw everything.
    case needsFullRedraw
    /// Drawing is paused (screen disconnected, another program took the display); the reason
    /// is for the log. `.needsFullRedraw` follows when it comes back.
    case suspended(String)
}

extension Display {
    /// Screens that do not know their size (headless, fbdev) report none.
    public var physicalSize: Size? { nil }
    /// Displays without events (headless) need nothing from the loop.
    public func attach(to loop: any EventLoopRegistry, onEvent: @escaping (DisplayEvent) -> Void) throws {}
    public func close() {}
    /// Most screens (headless, fbdev, QEMU's) have no plane besides their own.
    public var videoPlane: (any VideoPlane)? { nil }
}
