import Graphics

/// Command-line flags that override the config file: nil leaves the file's (or default) value.
/// The executable's argument parser fills this in; `KioskConfig.applying(_:)` merges and checks it.
/// `flagNames` is the agreed flag for each option, so errors name what the person typed.
public struct KioskConfigOverrides: Equatable, Sendable {
    public var logLevel: KioskConfig.LogLevel?
    public var kiosk: Bool?
    public var folders: [String]?
    public var sort: KioskConfig.Sort?
    public var thumbnailSize: Int?
    public var fileNameCaptions: Bool?
    public var cacheDirectory: String?
    public var cacheMemoryMB: Int?
    public var cacheDiskMB: Int?
    public var displayBackend: KioskConfig.DisplayBackend?
    public var connector: String?
    public var mode: KioskConfig.DisplayMode?
    public var rotation: KioskConfig.Rotation?
    public var inputBackend: KioskConfig.InputBackend?
    public var inputDevices: [String]?
    public var calibration: [Double]?
    public var idleTimeout: Double?
    public var interval: Double?
    public var order: KioskConfig.SlideshowOrder?
    public var transition: KioskConfig.Transition?
    public var transitionDuration: Double?
    public var portraitFill: KioskConfig.PortraitFill?
    public var kenBurns: Bool?
    public var clipSeconds: Double?
    public var playsMotion: Bool?
    public var pairPortraits: Bool?
    public var background: Color?
    public var overlayClock: KioskConfig.OverlayPosition?
    public var overlayDateTaken: KioskConfig.OverlayPosition?
    public var overlayCaption: KioskConfig.OverlayPosition?
    public var overlayPlace: KioskConfig.OverlayPosition?
    /// Replaces every period of the file; [] turns the schedule off.
    public var schedule: [SchedulePeriod]?
    public var blankMethod: KioskConfig.BlankMethod?
    public var wakeMinutes: Int?
    public var presenceChip: String?
    public var presenceLine: Int?
    public var presenceActiveLevel: KioskConfig.ActiveLevel?
    public var presenceTimeout: Int?
    public var presenceWakesDuringSchedule: Bool?
    public var cecEnabled: Bool?
    public var cecDevice: String?
    public var cecStandby: Bool?
    public var cecPowerOn: KioskConfig.PowerOn?
    public var soundClips: Bool?
    public var soundDevice: String?
    public var mqttURL: String?
    public var mqttUsername: String?
    public var mqttPassword: String?
    public var mqttPasswordFile: String?
    public var mqttID: String?
    public var mqttDiscoveryPrefix: String?
    public var mqttCAFile: String?
    public var remoteListen: KioskConfig.ListenAddress?
    public var remoteToken: String?
    public var remoteUploadFolder: String?
    public var remoteMaxUploadMB: Int?
    public var remoteReserveMB: Int?
    public var syncthingEnabled: Bool?
    public var syncthingAPIAddress: String?
    public var syncthingAPIKeyFile: String?
    public var syncthingFolderID: String?

    public init() {}

    /// Option (as in the file) → command-line flag, from `KioskConfig.schema`.
    public static let flagNames: [String: String] = Dictionary(
        uniqueKeysWithValues: KioskConfig.schema.compactMap { option in option.ownFlag.map { (option.key, $0) } }
            + KioskConfig.tableLists.compactMap { list in list.flag.map { (list.key, $0) } })

    /// "a b c d e f" (spaces or commas) → the six numbers of a libinput calibration matrix.
    public static func parseCalibration(_ text: String) -> [Double]? {
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "," }).map { Double($0) }
        guard numbers.count == 6, numbers.allSatisfy({ $0?.isFinite == true }) else { return nil }
        return numbers.map { $0! }
    }
}

extension Color {
    /// "#rrggbb" or "#rgb", as written in the config file and on the command line.
    public init?(hexString text: String) {
        guard text.first == "#" else { return nil }
        var hex = String(text.dropFirst())
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        guard hex.count == 6, let rgb = UInt32(hex, radix: 16) else { return nil }
        self.init(rgb: rgb)
    }
}

extension KioskConfig {
    /// The file's configuration with the command line's values on top, checked again as a whole
    /// (a flag may make another option invalid, e.g. a transition longer than the new interval).
    public func applying(_ o: KioskConfigOverrides) throws(ConfigError) -> KioskConfig {
        var c = self
        func set<T>(_ value: T?, _ target: inout T) { if let value { target = value } }
        set(o.logLevel, &c.logLevel)
        set(o.kiosk, &c.kiosk)
        set(o.folders, &c.library.folders)
        set(o.sort, &c.library.sort)
        set(o.thumbnailSize, &c.library.thumbnailSize)
        set(o.fileNameCaptions, &c.library.fileNameCaptions)
        if let dir = o.cacheDirectory { c.cache.directory = dir }
        set(o.cacheMemoryMB, &c.cache.memoryMB)
        set(o.cacheDiskMB, &c.cache.diskMB)
        set(o.displayBackend, &c.display.backend)
        if let connector = o.connector { c.display.connector = connector }
        if let mode = o.mode { c.display.mode = mode }
        set(o.rotation, &c.display.rotation)
        set(o.inputBackend, &c.input.backend)
        set(o.inputDevices, &c.input.devices)
        if let m = o.calibration { c.input.calibration = m }
        set(o.idleTimeout, &c.slideshow.idleTimeout)
        set(o.interval, &c.slideshow.interval)
        set(o.order, &c.slideshow.order)
        set(o.transition, &c.slideshow.transition)
        set(o.transitionDuration, &c.slideshow.transitionDuration)
        set(o.portraitFill, &c.slideshow.portraitFill)
        set(o.kenBurns, &c.slideshow.kenBurns)
        set(o.clipSeconds, &c.slideshow.clipSeconds)
        set(o.playsMotion, &c.slideshow.playsMotion)
        set(o.pairPortraits, &c.slideshow.pairPortraits)
        set(o.background, &c.slideshow.background)
        set(o.overlayClock, &c.overlay.clock)
        set(o.overlayDateTaken, &c.overlay.dateTaken)
        set(o.overlayCaption, &c.overlay.caption)
        set(o.overlayPlace, &c.overlay.place)
        set(o.schedule, &c.schedule.periods)
        set(o.blankMethod, &c.schedule.blankMethod)
        set(o.wakeMinutes, &c.schedule.wakeMinutes)
        if let chip = o.presenceChip { c.presence.chip = chip }
        set(o.presenceLine, &c.presence.line)
        set(o.presenceActiveLevel, &c.presence.activeLevel)
        set(o.presenceTimeout, &c.presence.timeout)
        set(o.presenceWakesDuringSchedule, &c.presence.wakesDuringSchedule)
        set(o.cecEnabled, &c.cec.enabled)
        if let device = o.cecDevice { c.cec.device = device }
        set(o.cecStandby, &c.cec.standby)
        set(o.cecPowerOn, &c.cec.powerOn)
        set(o.soundClips, &c.sound.clips)
        set(o.soundDevice, &c.sound.device)
        if let url = o.mqttURL { c.mqtt.url = url }
        if let username = o.mqttUsername { c.mqtt.username = username }
        // A password from the command line replaces the file's password_file, and the reverse.
        if let password = o.mqttPassword { c.mqtt.password = password; c.mqtt.passwordFile = nil }
        if let file = o.mqttPasswordFile { c.mqtt.passwordFile = file; c.mqtt.password = nil }
        if let id = o.mqttID { c.mqtt.id = id }
        set(o.mqttDiscoveryPrefix, &c.mqtt.discoveryPrefix)
        if let ca = o.mqttCAFile { c.mqtt.caFile = ca }
        if let listen = o.remoteListen { c.remote.listen = listen }
        set(o.remoteToken, &c.remote.token)
        if let folder = o.remoteUploadFolder { c.remote.uploadFolder = folder }
        set(o.remoteMaxUploadMB, &c.remote.maxUploadMB)
        set(o.remoteReserveMB, &c.remote.reserveMB)
        set(o.syncthingEnabled, &c.syncthing.enabled)
        set(o.syncthingAPIAddress, &c.syncthing.apiAddress)
        if let file = o.syncthingAPIKeyFile { c.syncthing.apiKeyFile = file }
        if let id = o.syncthingFolderID { c.syncthing.folderID = id }
        c.normalize()
        if let m = c.input.calibration, m.count != 6 {
            throw ConfigError(kind: .invalidValue, file: "command line", line: nil, key: "--calibration",
                              message: "needs exactly 6 numbers (a b c d e f); got \(m.count)")
        }
        if let problem = c.firstProblem() {
            throw ConfigError(kind: .invalidValue, file: "command line", line: nil,
                              key: KioskConfigOverrides.flagNames[problem.key] ?? problem.key,
                              message: problem.message)
        }
        return c
    }
}
