import Imaging

/// What the kiosk shows, for a remote's status page or a smart-home sensor.
public struct KioskStatus: Equatable, Sendable {
    public enum Screen: String, Sendable {
        case grid, album, slideshow, blank
    }

    public var screen: Screen
    /// The photo on screen (the slideshow's or the album's); nil on the grid.
    public var photo: RawPath?
    /// Its place in the library's order.
    public var photoIndex: Int?
    public var photoCount: Int
    public var isSlideshowRunning: Bool
    public var isPaused: Bool
    public var isScreenOn: Bool
    /// The motion sensor sees motion now; nil without a sensor.
    public var motion: Bool? = nil

    /// The photo's file name for people (bytes that are not UTF-8 show as U+FFFD).
    public var photoName: String? { photo.map { String(decoding: $0.lastComponent, as: UTF8.self) } }
}
