extension KioskConfig {
    /// `[overlay]`: the information drawn over the album (fading with its chrome) and the
    /// slideshow (staying). Each part is off or sits in a corner; parts sharing a corner stack in
    /// the order below.
    public struct Overlay: Equatable, Sendable {
        /// The time and the date now (the system's time zone, the locale's formats).
        public var clock: OverlayPosition = .off
        /// When the photo was taken (EXIF DateTimeOriginal).
        public var dateTaken: OverlayPosition = .off
        /// Its caption: EXIF ImageDescription or XPTitle, XMP dc:title or dc:description, IPTC caption.
        public var caption: OverlayPosition = .off
        /// The town nearest to its EXIF GPS position (the offline place table).
        public var place: OverlayPosition = .off
        public init() {}

        /// True when no part is on: no overlay exists, and the place table is never opened.
        public var isOff: Bool { [clock, dateTaken, caption, place].allSatisfy { $0 == .off } }
    }

    public enum OverlayPosition: String, CaseIterable, Sendable {
        case off
        case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
    }
}
