import Basics
import ArgumentParser
import Graphics
import Imaging
import Logging
import PhotoKioskApp
import Platform
import UI
import SystemAccess

/// Which screen a recording plays into.
enum TouchLabScreenChoice: String, ExpressibleByArgument, CaseIterable {
    case photos, touchTest = "touch-test"
}

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a touch recording into the app, headless or on the screen.",
        discussion: """
        Positions are normalised in the recording, so it replays on any screen size; the recorded \
        rotation applies unless --rotation is given. --fast runs on a virtual clock that stands \
        still while photos decode: the same recording gives the same pixels and report every time.
        """)

    @Argument(help: "A recording made by `photokiosk record`.") var file: String
    @Flag(help: "As fast as possible on a virtual clock (default: the original timing).") var fast = false
    @Option(help: "Write the final screen to this PNG.") var png: String?
    @Option(help: "Write a PNG named after each `mark` line into this folder.") var pngAtMarks: String?
    @Flag(help: "Print the gestures recognized (and the touch test's figures).") var report = false
    @Option(help: "photos or touch-test.") var screen: TouchLabScreenChoice = .photos
    @Option(help: "Headless screen size WIDTHxHEIGHT (default: the recorded screen).", transform: ArgumentValues.mode) var size: KioskConfig.DisplayMode?
    @Flag(help: "Play on the real display instead of a headless screen.") var onDisplay = false
    @Flag(help: "Draw the touch overlay.") var touchOverlay = false
    @OptionGroup var general: GeneralOptions
    @OptionGroup(title: "Photos") var photos: PhotoOptions
    @OptionGroup(title: "Screen") var screenOptions: ScreenOptions
    @OptionGroup(title: "Slideshow and schedule") var life: LifeOptions

    mutating func run() throws {
        if let png { try OutputPath.checkFolder(of: png, option: "--png") }
        let recording = try TouchRecording(parsing: try readText(file))
        if let folder = pngAtMarks { try Self.prepareMarkFolder(folder, for: recording) }
        var config = try general.resolvedConfig([photos, screenOptions, life])
        let logger = Bootstrap.logger(level: config.logLevel.loggerLevel)
        let loop = onDisplay ? try EventLoop() : try EventLoop(signals: [])
        let rotation = screenOptions.rotation.flatMap { Rotation(degrees: $0.rawValue) }
            ?? recording.device.flatMap { Rotation(degrees: $0.rotation) } ?? .none

        let display: any Display
        if onDisplay {
            var displayOptions = Bootstrap.displayOptions(config.display)
            displayOptions.rotation = rotation
            display = try openDisplay(displayOptions, logger: logger).display
        } else {
            let panel = recording.device.map { Size(width: $0.screen.width, height: $0.screen.height) } ?? Size(width: 1280, height: 800)
            let logical = rotation.swapsAxes ? Size(width: panel.height, height: panel.width) : panel
            display = HeadlessDisplay(width: size?.width ?? Int(logical.width), height: size?.height ?? Int(logical.height))
        }
        let clock = fast ? ManualClock(now: loop.now) : nil
        let content: TouchLabScreen.Content
        switch screen {
        case .photos:
            config.kiosk = false
            let folders = try Bootstrap.photoFolders(config: config, explicit: !photos.folders.isEmpty, logger: logger)
            content = .photos(config: config, folders: folders, thumbnailCacheDirectory: nil)
        case .touchTest:
            content = .touchTest
        }
        let target = TouchLabScreen(content: content, display: display, loop: loop, logger: logger, clock: clock,
                                    showsOverlay: touchOverlay, allowsToggle: false, rotation: rotation)
        try target.start()
        // The idle slideshow and the schedule run as on a frame; a fixed seed shuffles alike
        // every time, and on the virtual clock the local time moves with the recording.
        target.startKioskSession(power: onDisplay ? Run.screenPower(config, display: display, logger: logger) : nil,
                              seed: 1, localTime: clock.map { TouchLabScreen.localTime(following: $0, from: .current()) }
                                  ?? LocalDateTime.current)
        if let device = recording.device, let view = target.touchTest {
            view.setPanel(millimetres: device.sizeMillimetres.map { Size(width: $0.width, height: $0.height) },
                          calibration: device.calibration, name: device.name)
        }
        let geometry = RecordingGeometry(logicalSize: display.size, rotation: rotation)
        let replayer = Replayer(recording: recording, geometry: geometry, host: target.host,
                                pace: clock.map { Replayer.Pace.fast($0) } ?? Replayer.Pace.original,
                                deliver: { target.handle($0) }, isSettled: { target.isSettled })
        if let dir = pngAtMarks {
            replayer.onMark = { (name: String) throws in
                let path = dir + "/" + name + ".png"
                try PNGEncoder.write(display.frameBuffer, to: path)
                print("mark \(name): \(path)")
            }
        }
        try replayer.run()
        if replayer.stalls > 0 {
            logger.warning("content did not arrive within \(replayer.settleTimeout) s at \(replayer.stalls) steps: the replay went on without it")
        }
        let start = replayer.startTime ?? 0
        if let png {
            try PNGEncoder.write(display.frameBuffer, to: png)
            print("final screen: \(png)")
        }
        if report {
            print("# replay \(file): \(counted(recording.entries.count, "event")) over \(decimalText(recording.duration, places: 3)) s on \(Int(display.size.width))x\(Int(display.size.height)) rotation \(rotation.rawValue)")
            for line in target.lab.reportLines(from: start) { print(line) }
            print("# " + TouchLabSummary.counts(target.lab.gestures.map { $0.gesture }))
            if let view = target.touchTest {
                for line in view.session.reportLines(deviceName: view.deviceName) { print(line) }
            }
        }
        display.close()
    }
}

extension Replay {
    /// Refuses before playing, rather than at the first mark: a mark whose name is not a plain
    /// file name, or a folder that cannot be made (missing parents are created).
    static func prepareMarkFolder(_ folder: String, for recording: TouchRecording) throws {
        let names = recording.entries.compactMap { entry -> String? in
            if case .mark(let name) = entry.event { return name } else { return nil }
        }
        if let bad = names.first(where: { $0.contains("/") || $0 == "." || $0 == ".." }) {
            throw ValidationError("--png-at-marks: the recording's mark \"\(bad)\" is not a file name")
        }
        guard AtomicFile.makeDirectories(folder) else {
            throw CommandFailure("--png-at-marks: cannot make the folder \(folder)")
        }
    }
}

/// A whole small text file (recordings).
func readText(_ path: String) throws -> String {
    String(decoding: try FileReader.read(path: path), as: UTF8.self)
}
