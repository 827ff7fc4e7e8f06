import Basics
import ArgumentParser
import Glibc
import Graphics
import Imaging
import Logging
import PhotoKioskApp
import Platform
import Remote
import RemoteServer

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the photo grid on the screen (the default).")

    @OptionGroup var options: KioskOptions
    @OptionGroup(title: "MQTT (Home Assistant, fleets)") var mqtt: MQTTOptions
    @OptionGroup(title: "Remote control") var remote: RemoteOptions
    @OptionGroup(title: "Syncthing") var syncthing: SyncthingOptions
    @Option(help: "Headless screen size WIDTHxHEIGHT when no display device is usable (default: 1920x1080).", transform: ArgumentValues.mode)
    var size: KioskConfig.DisplayMode = .init(width: 1920, height: 1080)
    @Option(help: "Where the headless screen writes its PNG.")
    var screenshot: String = "photokiosk-screen.png"
    @Option(parsing: .unconditional, help: "Seconds the headless screen waits for thumbnails before writing the PNG (default: 60).", transform: ArgumentValues.number)
    var settleTimeout: Double = 60
    @Flag(help: "Draw the touch overlay (fingers, trails, rate, latency, gestures); a four-finger tap toggles it outside kiosk mode.")
    var touchOverlay = false

    func validate() throws {
        guard settleTimeout > 0 else { throw ValidationError("--settle-timeout must be more than 0 seconds, not \(decimalText(settleTimeout, places: 3))") }
    }

    mutating func run() throws {
        // config.toml and the command line, then the settings changed on the remote page over them.
        var base = try options.resolvedConfig(adding: [remote, mqtt, syncthing])
        try OutputPath.checkFolder(of: screenshot, option: "--screenshot")
        let logger = Bootstrap.logger(level: base.logLevel.loggerLevel)
        Bootstrap.reportStorageHealth(to: logger)
        var folders = try Bootstrap.photoFolders(config: base, explicit: !options.photos.folders.isEmpty, logger: logger)
        if base.remote.listen != nil {
            // Photos on a read-only stick: uploads go to a writable folder that joins the library.
            let choice = UploadFolderChoice.choose(configured: base.remote.uploadFolder, folders: folders,
                                                   stateDirectory: Bootstrap.stateDirectory(config: base))
            if choice.folders != folders { logger.notice("remote: the photo folders are read-only; uploads go to \(choice.uploadFolder ?? "?"), now part of the library") }
            folders = choice.folders
            base.remote.uploadFolder = choice.uploadFolder
        }
        let settingsStore = SettingsStore(stateDirectory: Bootstrap.stateDirectory(config: base), logger: logger)
        let config = settingsStore.load(over: base)
        let loop = try EventLoop()
        // Listing the folders overlaps opening the display.
        let cacheDirectory: String? = Bootstrap.usableCacheDirectory(config: config, logger: logger)
        let startup = LibraryStartup(folders: folders, config: config, loop: loop, logger: logger,
                                     snapshot: cacheDirectory.map { ListingSnapshotStore(directory: $0, logger: logger) })
        var displayOptions = Bootstrap.displayOptions(config.display)
        displayOptions.headlessWidth = size.width
        displayOptions.headlessHeight = size.height
        let opened = try openDisplay(displayOptions, logger: logger)
        logger.info("screen: \(opened.display.name); photos: \(folders.joined(separator: ", "))")

        let app = KioskApp(config: config, folders: folders, display: opened.display, loop: loop,
                           thumbnailCacheDirectory: cacheDirectory,
                           stateDirectory: Bootstrap.stateDirectory(config: config), logger: logger,
                           startup: startup)
        try app.start()
        if touchOverlay || !config.kiosk {   // the host keeps the lab
            let lab = TouchLab(host: app.host, showsOverlay: touchOverlay, allowsToggle: !config.kiosk)
            // Kiosk mode switched on from the phone takes the four-finger toggle away too.
            app.onSettingsApplied = { [weak lab] settings in lab?.allowsToggle = !settings.kiosk }
        }

        if opened.display is HeadlessDisplay, config.remote.listen != nil || config.mqtt.address != nil {
            // A headless kiosk driven over HTTP or MQTT (and how their tests run it): until SIGTERM.
            let life = app.startKioskSession(resume: nil)
            let controls = try Self.startControls(app: app, loop: loop, config: config, folders: folders, logger: logger)
            controls.remote?.api.settingsAPI = RemoteSettingsAPI(app: app, store: settingsStore, base: base, logger: logger)
            if let service = controls.remote, let listen = config.remote.listen {
                print("Headless kiosk with the remote page on http://\(KioskConfig.ListenAddress(host: listen.host, port: UInt16(service.server.port)))/ until SIGTERM")
            } else {
                print("Headless kiosk on MQTT as \(controls.mqtt?.id ?? "?") until SIGTERM")
            }
            try app.run()
            controls.stop()
            _ = life
            return
        }
        if let headless = opened.display as? HeadlessDisplay {
            // A preview: the slideshow only when it starts at once, nothing saved.
            let life = app.startKioskSession(resume: nil)
            let settled = life.isSlideshowRunning
                ? try app.host.run(until: { life.isSlideshowSettled || app.isShowingNoPhotosScreen }, timeout: settleTimeout)
                : try app.runUntilSettled(timeout: settleTimeout)
            if !settled { logger.warning("not every thumbnail arrived within \(settleTimeout) s; writing what is shown") }
            try PNGEncoder.write(headless.frameBuffer, to: screenshot)
            // The notice is for a frame that meant to use a screen; asked for, headless is no news.
            print(config.display.backend == .headless
                  ? "The headless screen is in \(screenshot)"
                  : "No display device could be used; the headless screen is in \(screenshot)")
            return
        }

        let input = try openInput(Bootstrap.inputBackend(config.input.backend),
                                  configuration: InputConfiguration(devices: config.input.devices, calibration: config.input.calibration),
                                  mapping: opened.mapping, logger: logger) { [weak app] event in app?.handle(event) }
        try input?.attach(to: loop)
        defer { input?.close() }
        // A different screen plugged in: touches map onto the new size.
        let relayout = app.host.onResize
        app.host.onResize = { [weak input] size in
            relayout?(size)
            input?.screenChanged(to: ScreenMapping(logicalSize: size, rotation: displayOptions.rotation))
        }
        let life = app.startKioskSession(resume: ResumeStore(path: Bootstrap.paths(config: config).resumeFile),
                                      power: Self.screenPower(config, display: opened.display, logger: logger))
        let motionSensor = Self.startMotionSensor(config, app: app, logger: logger)
        defer { if let motionSensor { motionSensor.detach(from: loop) } }
        let tvAdapter = Self.startTV(config, app: app, display: opened.display, loop: loop, logger: logger)
        defer { tvAdapter?.detach(from: loop) }
        let controls = try Self.startControls(app: app, loop: loop, config: config, folders: folders, logger: logger)
        controls.remote?.api.settingsAPI = RemoteSettingsAPI(app: app, store: settingsStore, base: base, logger: logger)
        try app.run()
        controls.stop()
        life.saveResume(force: true)
    }

    /// The doors from outside, each only when configured: the remote page and MQTT.
    struct Controls {
        var remote: RemoteService?
        var mqtt: MQTTControl?
        /// The phone folder's Syncthing state, for the phone page (`[syncthing] enabled`).
        var syncthing: SyncthingMonitor?
        func stop() {
            syncthing?.stop()
            remote?.close()
            mqtt?.stop()
        }
    }

    static func startControls(app: KioskApp, loop: EventLoop, config: KioskConfig, folders: [String],
                              logger: Logger) throws -> Controls {
        let remote = try config.remote.listen.map { listen in
            try startRemote(app: app, loop: loop, listen: listen, config: config, folders: folders, logger: logger)
        }
        if let remote, let listen = config.remote.listen {
            offerPairing(app: app, remote: remote, listen: listen, config: config, logger: logger)
        }
        let syncthing = startSyncthing(config, loop: loop, logger: logger)
        remote?.api.syncthing = syncthing
        return Controls(remote: remote, mqtt: try startMQTT(config, app: app, logger: logger), syncthing: syncthing)
    }

    /// The frame's screens show the address and a QR code that signs a phone in; the info screen's
    /// "New code" makes a new token (kept in the state directory, where it wins over the config's)
    /// and signs out every phone.
    static func offerPairing(app: KioskApp, remote: RemoteService, listen: KioskConfig.ListenAddress,
                             config: KioskConfig, logger: Logger) {
        let port = UInt16(remote.server.port)
        let store = PairingTokenStore(path: Bootstrap.paths(config: config).pairingTokenFile)
        app.pairingOffer = PairingAddress.offer(listen: listen, port: port, token: store.load() ?? config.remote.token)
        app.makeNewPairingCode = { [weak remote] in
            guard let remote else { return nil }
            // A random token is refused as weak about 3 times in 100,000 (too few different digits);
            // the stored one would then be ignored at the next start, so draw again.
            var token = SecureRandom.hex(12)
            while KioskConfig.Remote.tokenProblem(token) != nil { token = SecureRandom.hex(12) }
            do {
                try store.save(token)
            } catch {
                logger.warning("remote: the new token is not kept for the next start: \(error)")
            }
            remote.api.authenticator.replaceToken(with: token)
            return PairingAddress.offer(listen: listen, port: port, token: token)
        }
    }

    /// The remote page and API (`[remote] listen`); a failure to listen stops the start with the reason.
    static func startRemote(app: KioskApp, loop: EventLoop, listen: KioskConfig.ListenAddress, config: KioskConfig,
                            folders: [String], logger: Logger) throws -> RemoteService {
        let version = PhotoKioskCommand.configuration.version
        guard var settings = RemoteAPI.Settings(config: config, folders: folders, version: version.isEmpty ? "unknown" : version) else {
            throw CommandFailure("the remote needs a photo folder for uploads")
        }
        // A token made on the frame's info screen wins over the config's.
        if let made = PairingTokenStore(path: Bootstrap.paths(config: config).pairingTokenFile).load() { settings.token = made }
        let paths = Bootstrap.paths(config: config)
        settings.stateDirectory = paths.stateDirectory
        do {
            return try RemoteService(app: app, loop: loop, listen: listen, settings: settings, logger: logger)
        } catch {
            throw CommandFailure("remote.listen \(listen): \(error)")
        }
    }

    /// What blanks the screen on schedule: DPMS through the display, or the panel's backlight.
    static func screenPower(_ config: KioskConfig, display: any Display, logger: Logger) -> (any ScreenPowerControl)? {
        guard !config.schedule.periods.isEmpty else { return display as? any ScreenPowerControl }
        if config.schedule.blankMethod == .backlight {
            if let backlight = BacklightPower.first() { return backlight }
            logger.warning("schedule.blank = \"backlight\" but /sys/class/backlight is empty: using DPMS")
        }
        guard let control = display as? any ScreenPowerControl else {
            logger.warning("\(display.name) cannot be blanked: the schedule will not turn the screen off")
            return nil
        }
        return control
    }
}
