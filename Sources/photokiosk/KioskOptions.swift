import ArgumentParser
import Graphics
import PhotoKioskApp

// Command-line parsing for every config option. Each flag overrides the config file.
extension KioskConfig.LogLevel: ExpressibleByArgument {}
extension KioskConfig.Sort: ExpressibleByArgument {}
extension KioskConfig.DisplayBackend: ExpressibleByArgument {}
extension KioskConfig.Rotation: ExpressibleByArgument {}
extension KioskConfig.InputBackend: ExpressibleByArgument {}
extension KioskConfig.SlideshowOrder: ExpressibleByArgument {}
extension KioskConfig.Transition: ExpressibleByArgument {}
extension KioskConfig.PortraitFill: ExpressibleByArgument {}
extension KioskConfig.BlankMethod: ExpressibleByArgument {}
extension KioskConfig.DisplayMode: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}
extension SchedulePeriod: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

struct KioskOptions: ParsableArguments {
    @Option(help: "Config file (default: \(KioskConfig.defaultPath), which may be absent).")
    var config: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical.") var logLevel: KioskConfig.LogLevel?
    @Flag(inversion: .prefixedNo, help: "Kiosk mode: no quit gesture.") var kiosk: Bool?
    @Option(name: [.customLong("photos"), .customLong("folder")], help: "A photo folder (repeatable; default: the bundled samples).") var folders: [String] = []
    @Option(help: "name or date.") var sort: KioskConfig.Sort?
    @Option(help: "Thumbnail edge in pixels.") var thumbnailSize: Int?
    @Option(help: "Thumbnail cache directory.") var cacheDir: String?
    @Option(help: "Memory for decoded images, MB.") var cacheMemoryMb: Int?
    @Option(help: "Disk thumbnail cache, MB (0: off).") var cacheDiskMb: Int?
    @Option(name: .customLong("display"), help: "auto, drm, fbdev or headless.") var displayBackend: KioskConfig.DisplayBackend?
    @Option(help: "Output connector, e.g. HDMI-A-1.") var connector: String?
    @Option(help: "Mode WIDTHxHEIGHT.") var mode: KioskConfig.DisplayMode?
    @Option(help: "0, 90, 180 or 270.") var rotation: KioskConfig.Rotation?
    @Option(name: .customLong("input"), help: "auto, libinput or none.") var inputBackend: KioskConfig.InputBackend?
    @Option(name: .customLong("input-device"), help: "Input device node (repeatable).") var inputDevices: [String] = []
    @Option(help: "Touch calibration matrix \"a b c d e f\".") var calibration: String?
    @Option(help: "Seconds without touch before the slideshow (0: start in it).") var idleTimeout: Double?
    @Option(help: "Seconds per photo.") var interval: Double?
    @Option(help: "sequential or shuffle.") var order: KioskConfig.SlideshowOrder?
    @Option(help: "crossfade or none.") var transition: KioskConfig.Transition?
    @Option(help: "Cross-fade seconds.") var transitionDuration: Double?
    @Option(help: "blur, solid or none.") var portraitFill: KioskConfig.PortraitFill?
    @Option(help: "Background colour #rrggbb.") var background: String?
    @Option(help: "Screen-off period \"DAYS OFF-ON\", e.g. \"mon-fri 22:30-07:00\" (repeatable; replaces the file's).")
    var schedule: [SchedulePeriod] = []
    @Flag(help: "Ignore the file's schedule: always on.") var noSchedule = false
    @Option(help: "dpms or backlight.") var blank: KioskConfig.BlankMethod?
    @Option(help: "Minutes a touch wakes a blank screen.") var wakeMinutes: Int?

    func overrides() throws -> KioskConfigOverrides {
        var o = KioskConfigOverrides()
        o.logLevel = logLevel
        o.kiosk = kiosk
        o.folders = folders.isEmpty ? nil : folders
        o.sort = sort
        o.thumbnailSize = thumbnailSize
        o.cacheDirectory = cacheDir
        o.cacheMemoryMB = cacheMemoryMb
        o.cacheDiskMB = cacheDiskMb
        o.displayBackend = displayBackend
        o.connector = connector
        o.mode = mode
        o.rotation = rotation
        o.inputBackend = inputBackend
        o.inputDevices = inputDevices.isEmpty ? nil : inputDevices
        if let calibration {
            guard let m = KioskConfigOverrides.parseCalibration(calibration) else {
                throw ValidationError("--calibration needs 6 numbers \"a b c d e f\", got \"\(calibration)\"")
            }
            o.calibration = m
        }
        o.idleTimeout = idleTimeout
        o.interval = interval
        o.order = order
        o.transition = transition
        o.transitionDuration = transitionDuration
        o.portraitFill = portraitFill
        if let background {
            guard let color = Color(hexString: background) else {
                throw ValidationError("--background needs a colour like #000000, got \"\(background)\"")
            }
            o.background = color
        }
        o.schedule = noSchedule ? [] : (schedule.isEmpty ? nil : schedule)
        o.blankMethod = blank
        o.wakeMinutes = wakeMinutes
        return o
    }

    /// The file (if any) with the flags on top; no start on any mistake: every mistake in line
    /// order, one "FILE:LINE: OPTION: problem" line each on stderr, exit status 78 (EX_CONFIG).
    func resolvedConfig() throws -> KioskConfig {
        do {
            let file = try KioskConfig.load(path: config ?? KioskConfig.defaultPath, mustExist: config != nil)
            return try file.applying(overrides())
        } catch let error as ConfigError {
            for mistake in error.allMistakes { printError("photokiosk: \(mistake)") }
            throw ExitCode(Self.configErrorExitCode)
        }
    }

    /// sysexits.h EX_CONFIG; the systemd unit does not restart on it (RestartPreventExitStatus).
    static let configErrorExitCode: Int32 = 78
}
