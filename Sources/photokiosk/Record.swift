import Basics
import ArgumentParser
import Graphics
import Imaging
import Logging
import PhotoKioskApp
import Platform

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record every touch, mouse and key event into a text file while the app runs.",
        discussion: """
        Each line is one event with its time; positions are normalised to the panel, and the \
        touchscreen's name, size in mm and calibration are in the header. The file is written \
        when the app stops (quit key, SIGINT, SIGTERM or --duration). Press M to add a mark line.
        """)

    @Argument(help: "Where to write the recording.") var file: String
    @Flag(help: "Show the touch-test screen instead of the photos.") var touchTest = false
    @Flag(help: "Draw the touch overlay.") var touchOverlay = false
    @Option(parsing: .unconditional, help: "Stop after this many seconds.", transform: ArgumentValues.number) var duration: Double?
    @Option(help: "Headless screen size WIDTHxHEIGHT when no display device is usable (default: 1280x800).", transform: ArgumentValues.mode)
    var size: KioskConfig.DisplayMode = .init(width: 1280, height: 800)
    @OptionGroup var options: KioskOptions

    static let markKeyCode: UInt32 = 50   // KEY_M

    mutating func run() throws {
        let config = try options.resolvedConfig()
        let logger = Bootstrap.logger(level: config.logLevel.loggerLevel)
        let loop = try EventLoop()
        let opened = try Bootstrap.openScreen(config.display, headlessSize: size, logger: logger)
        let content: TouchLabScreen.Content = touchTest ? .touchTest : .photos(
            config: config, folders: try Bootstrap.photoFolders(config: config, explicit: !options.photos.folders.isEmpty, logger: logger),
            thumbnailCacheDirectory: Bootstrap.cacheDirectory(config: config))
        let screen = TouchLabScreen(content: content, display: opened.display, loop: loop, logger: logger,
                                    showsOverlay: touchOverlay, allowsToggle: !config.kiosk, rotation: opened.mapping.rotation)
        screen.host.allowsQuit = !config.kiosk
        try screen.start()
        screen.startKioskSession(power: Run.screenPower(config, display: opened.display, logger: logger),
                              seed: .random(in: 0...UInt64.max), localTime: LocalDateTime.current)
        let recorder = TouchRecorder(geometry: RecordingGeometry(logicalSize: opened.display.size, rotation: opened.mapping.rotation))
        var marks = 0
        // Photos are recorded as `run` sees them, through the configured calibration; the touch
        // test measures the raw panel (it is how a calibration is found).
        let calibration = touchTest ? nil : config.input.calibration
        let input = try openInput(Bootstrap.inputBackend(config.input.backend),
                                  configuration: InputConfiguration(devices: config.input.devices, calibration: calibration),
                                  mapping: opened.mapping, logger: logger) { event in
            if case let .key(.other(code), pressed, time) = event, code == Self.markKeyCode {
                if pressed {
                    marks += 1
                    recorder.mark("m\(marks)", at: time)
                }
                return
            }
            recorder.add(event)
            screen.handle(event)
        }
        try input?.attach(to: loop)
        defer { input?.close() }
        if input == nil { logger.warning("no input backend: the recording will be empty") }
        if let duration { loop.addTimer(after: duration) { screen.host.stop() } }
        logger.info("recording to \(file); stop with Ctrl+C")
        try screen.host.run()
        try FileReader.write(Array(recorder.recording.serialized().utf8), to: file)
        print("\(file): \(counted(recorder.recording.entries.count, "event")) over \(decimalText(recorder.recording.duration, places: 3)) s")
        if let view = screen.touchTest {
            for line in view.session.reportLines(deviceName: view.deviceName) { print(line) }
        }
    }
}
