import Graphics

/// Everything a kiosk can be told, with a default for each option, so an empty file (or none)
/// is a working configuration. Parsed from TOML by `KioskConfig.parse(_:file:)`, then merged
/// with command-line flags by `applying(_:)`. deploy/config.toml documents every option.
public struct KioskConfig: Equatable, Sendable {
    public var logLevel: LogLevel = .info
    /// No quit gesture, no way out to a console: for public kiosks.
    public var kiosk: Bool = false
    public var library = Library()
    public var cache = Cache()
    public var display = Display()
    public var input = Input()
    public var slideshow = Slideshow()
    public var overlay = Overlay()
    public var schedule = Schedule()
    public var mqtt = MQTT()
    public var remote = Remote()
    public var presence = Presence()
    public var cec = CEC()
    public var sound = Sound()
    /// Folders synced from servers by the sync unit (`[[source]]`); none by default.
    public var sources: [Source] = []
    public var syncthing = Syncthing()

    public init() {}

    public static let defaultPath = "/etc/photokiosk/config.toml"

    public enum LogLevel: String, CaseIterable, Sendable {
        case trace, debug, info, notice, warning, error, critical
    }

    public struct Library: Equatable, Sendable {
        public var folders: [String] = ["/var/lib/photokiosk/photos"]
        public var sort: Sort = .name
        /// Edge length of a grid thumbnail in points (the screen's ChromeMetrics turn it into pixels).
        public var thumbnailSize: Int = 140
        /// The album's caption for a photo whose metadata has none: its file name without the
        /// extension (true), or nothing (false).
        public var fileNameCaptions = false
        public init() {}
    }

    public enum Sort: String, CaseIterable, Sendable { case name, date }

    public struct Cache: Equatable, Sendable {
        /// nil: $XDG_CACHE_HOME/photokiosk, or /var/cache/photokiosk (see `KioskPaths`).
        public var directory: String? = nil
        /// Follows the board's memory unless configured (`MemorySizing.imageCacheMB`).
        public var memoryMB: Int = MemorySizing.imageCacheMB(memTotal: MemorySizing.machineMemTotal)
        public var diskMB: Int = 1024
        public init() {}
    }

    public struct Display: Equatable, Sendable {
        public var backend: DisplayBackend = .auto
        /// Connector name such as "HDMI-A-1"; nil: the first connected one.
        public var connector: String? = nil
        /// nil: the connector's preferred mode.
        public var mode: DisplayMode? = nil
        public var rotation: Rotation = .none
        public init() {}
    }

    public enum DisplayBackend: String, CaseIterable, Sendable { case auto, drm, fbdev, headless }

    public struct DisplayMode: Equatable, Sendable, CustomStringConvertible {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        /// "1920x1080" (an upper-case X is accepted too).
        public init?(parsing text: String) {
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
                  (1...16384).contains(w), (1...16384).contains(h) else { return nil }
            self.init(width: w, height: h)
        }

        public var description: String { "\(width)x\(height)" }
    }

    public enum Rotation: Int, CaseIterable, Sendable {
        case none = 0, quarter = 90, half = 180, threeQuarters = 270
    }

    public struct Input: Equatable, Sendable {
        public var backend: InputBackend = .auto
        /// Device nodes to open; empty: every touch device libinput finds on seat0.
        public var devices: [String] = []
        /// libinput calibration matrix (a b c d e f) overriding udev's; nil: keep the device's.
        public var calibration: [Double]? = nil
        public init() {}
    }

    public enum InputBackend: String, CaseIterable, Sendable { case auto, libinput, none }

    public struct Slideshow: Equatable, Sendable {
        /// Seconds without a touch before the slideshow starts. 0: start in the slideshow; after a
        /// touch it then comes back after `IdleTracker.minimumInteractiveTimeout`.
        public var idleTimeout: Double = 120
        /// Seconds each photo stays on screen.
        public var interval: Double = 10
        public var order: SlideshowOrder = .sequential
        public var transition: Transition = .crossfade
        /// Seconds of the cross-fade or slide.
        public var transitionDuration: Double = 1
        /// A slow pan and zoom across each photo (`KenBurnsPath`): redraws every frame.
        public var kenBurns: Bool = false
        /// The longest a video clip plays (muted) before the next photo; a shorter one loops until
        /// `interval` has passed. 0: clips show as their still poster frame for `interval`.
        public var clipSeconds: Double = 30
        /// A Live Photo's or Motion Photo's motion plays once as its slide comes in.
        public var playsMotion: Bool = true
        /// Two portrait photos side by side on a landscape screen (two landscape ones stacked on a
        /// portrait screen); see `PortraitPairing` for which photos pair.
        public var pairPortraits: Bool = false
        public var portraitFill: PortraitFill = .blur
        public var background: Color = .black
        public init() {}
    }

    public enum SlideshowOrder: String, CaseIterable, Sendable { case sequential, shuffle }
    /// How one photo gives way to the next: a cross-fade, a slide (the new photo pushes the old one
    /// out to the left), or a cut.
    public enum Transition: String, CaseIterable, Sendable { case crossfade, slide, none }
    public enum PortraitFill: String, CaseIterable, Sendable { case blur, solid, none }

    public struct Schedule: Equatable, Sendable {
        /// When the screen is off. Empty: always on.
        public var periods: [SchedulePeriod] = []
        public var blankMethod: BlankMethod = .dpms
        /// Minutes a touch wakes a blanked screen for; 0: touches do not wake it.
        public var wakeMinutes: Int = 5
        public init() {}
    }

    public enum BlankMethod: String, CaseIterable, Sendable { case dpms, backlight }
}
