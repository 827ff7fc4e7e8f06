import Basics
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
extension KioskConfig.ActiveLevel: ExpressibleByArgument {}
extension KioskConfig.PowerOn: ExpressibleByArgument {}
extension KioskConfig.OverlayPosition: ExpressibleByArgument {}
extension KioskConfig.DisplayMode: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

/// A set of command-line options that each override a part of the config file. Commands list
/// only the groups they honour, so no command accepts an option it would silently ignore.
protocol ConfigOverrideGroup {
    func apply(to overrides: inout KioskConfigOverrides) throws
}

/// Every command that reads the config file.
struct GeneralOptions: ParsableArguments {
    @OptionGroup var configFile: ConfigFileOption
    @Option(help: "trace, debug, info, notice, warning, error or critical.") var logLevel: KioskConfig.LogLevel?

    /// The file (if any) with the groups' flags on top; no start on any mistake: every mistake
    /// in line order, one "FILE:LINE: OPTION: problem" line each on stderr, exit status 78
    /// (EX_CONFIG).
    /// `readsDefaultFile: false` reads a file only when --config names one (`snapshot`: the same
    /// picture on every machine unless asked for the frame's settings).
    func resolvedConfig(_ groups: [any ConfigOverrideGroup], readsDefaultFile: Bool = true) throws -> KioskConfig {
        do {
            var overrides = KioskConfigOverrides()
            overrides.logLevel = logLevel
            for group in groups { try group.apply(to: &overrides) }
            let file = configFile.config == nil && !readsDefaultFile ? KioskConfig() : try configFile.load()
            return try file.applying(overrides)
        } catch let error as ConfigError {
            for mistake in error.allMistakes { printError("photokiosk: \(mistake)") }
            throw ExitCode(Self.configErrorExitCode)
        } catch let error as ValidationError {
            // A flag's value refused while merging (called from run(), where ArgumentParser would
            // show the default command's usage): one line, like the range errors above.
            printError("photokiosk: command line: \(error.message)")
            throw ExitCode(Self.configErrorExitCode)
        }
    }

    /// sysexits.h EX_CONFIG; the systemd unit does not restart on it (RestartPreventExitStatus).
    static let configErrorExitCode: Int32 = 78
}

/// Which photos, in which order, and how much memory their images may take.
struct PhotoOptions: ParsableArguments, ConfigOverrideGroup {
    @Option(name: [.customLong("photos"), .customLong("folder")], help: "A photo folder (repeatable; default: the bundled samples).") var folders: [String] = []
    @Option(help: "name or date.") var sort: KioskConfig.Sort?
    @Option(parsing: .unconditional, help: "Thumbnail edge in points (1/160 inch on a screen that reports its size; default 140).", transform: ArgumentValues.wholeNumber) var thumbnailSize: Int?
    @Option(parsing: .unconditional, help: "Memory for decoded images, MB.", transform: ArgumentValues.wholeNumber) var cacheMemoryMb: Int?
    @Flag(inversion: .prefixedNo, help: "Caption a photo without one in its metadata with its file name (without the extension).")
    var fileNameCaptions: Bool?

    func apply(to o: inout KioskConfigOverrides) throws {
        o.folders = folders.isEmpty ? nil : folders
        o.sort = sort
        o.thumbnailSize = thumbnailSize
        o.fileNameCaptions = fileNameCaptions
        o.cacheMemoryMB = cacheMemoryMb
    }
}

/// The thumbnail cache on disk (commands that keep one).
struct DiskCacheOptions: ParsableArguments, ConfigOverrideGroup {
    @Option(help: "Thumbnail cache directory.") var cacheDir: String?
    @Option(parsing: .unconditional, help: "Disk thumbnail cache, MB (0: off).", transform: ArgumentValues.wholeNumber) var cacheDiskMb: Int?

    func apply(to o: inout KioskConfigOverrides) throws {
        o.cacheDirectory = cacheDir
        o.cacheDiskMB = cacheDiskMb
    }
}

/// Which screen, at which mode and rotation.
struct ScreenOptions: ParsableArguments, ConfigOverrideGroup {
    @Option(name: .customLong("display"), help: "auto, drm, fbdev or headless.") var displayBackend: KioskConfig.DisplayBackend?
    @Option(help: "Output connector, e.g. HDMI-A-1.") var connector: String?
    @Option(help: "Mode WIDTHxHEIGHT.", transform: ArgumentValues.mode) var mode: KioskConfig.DisplayMode?
    @Option(parsing: .unconditional, help: "0, 90, 180 or 270.") var rotation: KioskConfig.Rotation?

    func apply(to o: inout KioskConfigOverrides) throws {
        o.displayBackend = displayBackend
        o.connector = connector
        o.mode = mode
        o.rotation = rotation
    }
}

/// Where touches come from.
struct InputOptions: ParsableArguments, ConfigOverrideGroup {
    @Option(name: .customLong("input"), help: "auto, libinput or none.") var inputBackend: KioskConfig.InputBackend?
    @Option(name: .customLong("input-device"), help: "Input device node (repeatable).") var inputDevices: [String] = []

    func apply(to o: inout KioskConfigOverrides) throws {
        o.inputBackend = inputBackend
        o.inputDevices = inputDevices.isEmpty ? nil : inputDevices
    }
}

/// The calibration applied to touches (not by the touch test, which measures the raw panel).
struct CalibrationOptions: ParsableArguments, ConfigOverrideGroup {
    @Option(help: "Touch calibration matrix \"a b c d e f\".") var calibration: String?

    func apply(to o: inout KioskConfigOverrides) throws {
        guard let calibration else { return }
        guard let m = KioskConfigOverrides.parseCalibration(calibration) else {
            throw ValidationError("--calibration needs 6 numbers \"a b c d e f\", got \"\(calibration)\"")
        }
        o.calibration = m
    }
}

/// The slideshow: when it starts and how it shows the photos (also what `snapshot` previews).
struct SlideshowOptions: ParsableArguments, ConfigOverrideGroup {
    @Option(parsing: .unconditional,
            help: "Seconds without touch before the slideshow (0: start in it; default: \(decimalText(KioskConfig().slideshow.idleTimeout, places: 0))).", transform: ArgumentValues.number)
    var idleTimeout: Double?
    @Option(parsing: .unconditional,
            help: "Seconds per photo (default: \(decimalText(KioskConfig().slideshow.interval, places: 0))).", transform: ArgumentValues.number)
    var interval: Double?
    @Option(help: "sequential or shuffle.") var order: KioskConfig.SlideshowOrder?
    @Option(help: "crossfade, slide or none.") var transition: KioskConfig.Transition?
    @Option(parsing: .unconditional, help: "Cross-fade or slide seconds.", transform: ArgumentValues.number) var transitionDuration: Double?
    @Option(help: "blur, solid or none.") var portraitFill: KioskConfig.PortraitFill?
    @Flag(inversion: .prefixedNo, help: "Slow pan and zoom across each photo.") var kenBurns: Bool?
    @Option(parsing: .unconditional, help: "Longest seconds a clip plays in the slideshow (0: clips as stills).",
            transform: ArgumentValues.number) var clipSeconds: Double?
    @Flag(inversion: .prefixedNo, help: "Live and Motion Photos play their motion once in the slideshow.") var playMotion: Bool?
    @Flag(inversion: .prefixedNo, help: "Clips in the album play their sound (the slideshow's stay muted).") var clipSound: Bool?
    @Option(help: "ALSA device for clips' sound, e.g. hdmi:CARD=vc4hdmi0,DEV=0 (default: default).") var soundDevice: String?
    @Flag(inversion: .prefixedNo, help: "Two portrait photos side by side (landscape ones stacked on a portrait screen).")
    var pairPortraits: Bool?
    @Option(help: "Background colour #rrggbb.") var background: String?

    func apply(to o: inout KioskConfigOverrides) throws {
        o.idleTimeout = idleTimeout
        o.interval = interval
        o.order = order
        o.transition = transition
        o.transitionDuration = transitionDuration
        o.portraitFill = portraitFill
        o.kenBurns = kenBurns
        o.clipSeconds = clipSeconds
        o.soundClips = clipSound
        o.playsMotion = playMotion
        o.soundDevice = soundDevice
        o.pairPortraits = pairPortraits
        if let background {
            guard let color = Color(hexString: background) else {
                throw ValidationError("--background needs a colour like #000000, got \"\(background)\"")
            }
            o.background = color
        }
    }
}

/// The screen-off schedule and how the screen is blanked.
struct ScheduleOptions: ParsableArguments, ConfigOverrideGroup {
    @Option(help: "Screen-off period \"DAYS OFF-ON\", e.g. \"mon-fri 22:30-07:00\" (repeatable; replaces the file's).",
            transform: ArgumentValues.schedulePeriod)
    var schedule: [SchedulePeriod] = []
    @Flag(help: "Ignore the file's schedule: always on.") var noSchedule = false
    @Option(help: "dpms or backlight.") var blank: KioskConfig.BlankMethod?
    @Option(parsing: .unconditional, help: "Minutes a touch wakes a blank screen.", transform: ArgumentValues.wholeNumber) var wakeMinutes: Int?

    func apply(to o: inout KioskConfigOverrides) throws {
        o.schedule = noSchedule ? [] : (schedule.isEmpty ? nil : schedule)
        o.blankMethod = blank
        o.wakeMinutes = wakeMinutes
    }
}

/// The motion sensor that blanks an empty room's screen and wakes it.
struct PresenceOptions: ParsableArguments, ConfigOverrideGroup {
    @Option(help: "GPIO chip of a motion sensor, e.g. gpiochip0 (off unless set).") var presenceChip: String?
    @Option(parsing: .unconditional, help: "The sensor's line offset on the chip.", transform: ArgumentValues.wholeNumber)
    var presenceLine: Int?
    @Option(help: "high or low: the level the sensor drives on motion.") var presenceActiveLevel: KioskConfig.ActiveLevel?
    @Option(parsing: .unconditional, help: "Seconds without motion before the screen blanks.", transform: ArgumentValues.wholeNumber)
    var presenceTimeout: Int?
    @Flag(inversion: .prefixedNo, help: "Motion also wakes the screen while the schedule has it off.")
    var presenceWakeDuringSchedule: Bool?

    func apply(to o: inout KioskConfigOverrides) throws {
        o.presenceChip = presenceChip
        o.presenceLine = presenceLine
        o.presenceActiveLevel = presenceActiveLevel
        o.presenceTimeout = presenceTimeout
        o.presenceWakesDuringSchedule = presenceWakeDuringSchedule
    }
}

/// The TV's power over HDMI-CEC, switched with the screen.
struct CECOptions: ParsableArguments, ConfigOverrideGroup {
    @Flag(inversion: .prefixedNo, help: "Switch the TV with the screen over HDMI-CEC.") var cec: Bool?
    @Option(help: "CEC adapter, e.g. cec1 (default: the one of the HDMI output drawn on).") var cecDevice: String?
    @Flag(inversion: .prefixedNo, help: "Put the TV to standby when the screen blanks.") var cecStandby: Bool?
    @Option(help: "image, text or none: what wakes the TV with the screen.") var cecPowerOn: KioskConfig.PowerOn?

    func apply(to o: inout KioskConfigOverrides) throws {
        o.cecEnabled = cec
        o.cecDevice = cecDevice
        o.cecStandby = cecStandby
        o.cecPowerOn = cecPowerOn
    }
}

/// The kiosk's life: the idle slideshow, the screen-off schedule and blanking, the motion sensor,
/// the TV over CEC.
struct LifeOptions: ParsableArguments, ConfigOverrideGroup {
    @OptionGroup var slideshow: SlideshowOptions
    @OptionGroup var schedule: ScheduleOptions
    @OptionGroup var presence: PresenceOptions
    @OptionGroup var cec: CECOptions

    func apply(to o: inout KioskConfigOverrides) throws {
        try slideshow.apply(to: &o)
        try schedule.apply(to: &o)
        try presence.apply(to: &o)
        try cec.apply(to: &o)
    }
}

/// The MQTT connection (`run` only): Home Assistant discovery and fleet commands.
struct MQTTOptions: ParsableArguments, ConfigOverrideGroup {
    @Option(name: .customLong("mqtt-url"), help: "Broker mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (off unless given here or in the file).")
    var url: String?
    @Option(name: .customLong("mqtt-username"), help: "Broker user name.") var username: String?
    @Option(name: .customLong("mqtt-password"), help: "Broker password (other users can read it in ps: prefer --mqtt-password-file).")
    var password: String?
    @Option(name: .customLong("mqtt-password-file"), help: "File holding the broker password.") var passwordFile: String?
    @Option(name: .customLong("mqtt-id"), help: "This frame's name in topics and in Home Assistant (default: the host name).")
    var id: String?
    @Option(name: .customLong("mqtt-discovery-prefix"), help: "Home Assistant's discovery prefix (default: homeassistant).")
    var discoveryPrefix: String?
    @Option(name: .customLong("mqtt-ca-file"), help: "CA certificate for mqtts:// (default: the system's).") var caFile: String?

    func apply(to o: inout KioskConfigOverrides) throws {
        o.mqttURL = url
        o.mqttUsername = username
        o.mqttPassword = password
        o.mqttPasswordFile = passwordFile
        o.mqttID = id
        o.mqttDiscoveryPrefix = discoveryPrefix
        o.mqttCAFile = caFile
    }
}

/// The frame's Syncthing, asked for the phone folder's state (`run` only); off unless enabled.
struct SyncthingOptions: ParsableArguments, ConfigOverrideGroup {
    @Flag(name: .customLong("syncthing"), inversion: .prefixedNo, help: "Show this computer's Syncthing state on the phone page.")
    var enabled: Bool?
    @Option(name: .customLong("syncthing-api-address"), help: "Syncthing's REST address, http://127.0.0.1:PORT (default 8384).")
    var apiAddress: String?
    @Option(name: .customLong("syncthing-api-key-file"), help: "File holding Syncthing's API key.") var apiKeyFile: String?
    @Option(name: .customLong("syncthing-folder-id"), help: "ID of the Syncthing folder the phone sends to.") var folderID: String?

    func apply(to o: inout KioskConfigOverrides) throws {
        o.syncthingEnabled = enabled
        o.syncthingAPIAddress = apiAddress
        o.syncthingAPIKeyFile = apiKeyFile
        o.syncthingFolderID = folderID
    }
}

/// The remote page and API (`run` only): off unless an address is given, never without a token.
struct RemoteOptions: ParsableArguments, ConfigOverrideGroup {
    @Option(help: "Serve the remote page and API on ADDRESS:PORT, e.g. 0.0.0.0:8080 (off unless set).")
    var remoteListen: String?
    @Option(help: "The remote API's token (at least 16 characters); required with --remote-listen.")
    var remoteToken: String?
    @Option(help: "Folder for uploaded photos (default: the first photo folder).") var remoteUploadFolder: String?
    @Option(parsing: .unconditional, help: "Largest uploaded photo, MB.", transform: ArgumentValues.wholeNumber) var remoteMaxUploadMb: Int?
    @Option(parsing: .unconditional, help: "Disk space uploads leave free, MB.", transform: ArgumentValues.wholeNumber) var remoteReserveMb: Int?

    func apply(to o: inout KioskConfigOverrides) throws {
        if let remoteListen {
            guard let address = KioskConfig.ListenAddress(parsing: remoteListen) else {
                throw ValidationError("--remote-listen \"\(remoteListen)\" \(KioskConfig.ListenAddress.formatHint)")
            }
            o.remoteListen = address
        }
        o.remoteToken = remoteToken
        o.remoteUploadFolder = remoteUploadFolder
        o.remoteMaxUploadMB = remoteMaxUploadMb
        o.remoteReserveMB = remoteReserveMb
    }
}

/// The information overlay: each part off or in a corner.
struct OverlayOptions: ParsableArguments, ConfigOverrideGroup {
    @Option(help: ArgumentHelp("The clock and today's date: off or a corner.", valueName: "corner"))
    var overlayClock: KioskConfig.OverlayPosition?
    @Option(help: ArgumentHelp("When the photo was taken: off or a corner.", valueName: "corner"))
    var overlayDateTaken: KioskConfig.OverlayPosition?
    @Option(help: ArgumentHelp("The photo's caption (EXIF, XMP or IPTC): off or a corner.", valueName: "corner"))
    var overlayCaption: KioskConfig.OverlayPosition?
    @Option(help: ArgumentHelp("Where the photo was taken (its GPS position, offline): off or a corner.", valueName: "corner"))
    var overlayPlace: KioskConfig.OverlayPosition?

    func apply(to o: inout KioskConfigOverrides) throws {
        o.overlayClock = overlayClock
        o.overlayDateTaken = overlayDateTaken
        o.overlayCaption = overlayCaption
        o.overlayPlace = overlayPlace
    }
}

/// Everything `run` and `record` honour: the app as it runs on a frame.
struct KioskOptions: ParsableArguments {
    @OptionGroup var general: GeneralOptions
    @Flag(inversion: .prefixedNo, help: "Kiosk mode: no quit gesture.") var kiosk: Bool?
    @OptionGroup(title: "Photos") var photos: PhotoOptions
    @OptionGroup(title: "Thumbnail cache") var diskCache: DiskCacheOptions
    @OptionGroup(title: "Screen") var screen: ScreenOptions
    @OptionGroup(title: "Input") var input: InputOptions
    @OptionGroup(title: "Input") var calibration: CalibrationOptions
    @OptionGroup(title: "Slideshow and schedule") var life: LifeOptions
    @OptionGroup(title: "Information overlay") var overlay: OverlayOptions

    func resolvedConfig(adding extra: [any ConfigOverrideGroup] = []) throws -> KioskConfig {
        try general.resolvedConfig([KioskFlag(kiosk: kiosk), photos, diskCache, screen, input, calibration, life, overlay] + extra)
    }
}

/// `--kiosk`/`--no-kiosk` as a group of its own, so it sits with the general options in help.
private struct KioskFlag: ConfigOverrideGroup {
    var kiosk: Bool?
    func apply(to o: inout KioskConfigOverrides) throws { o.kiosk = kiosk }
}
