import ArgumentParser
import Logging
import PhotoKioskApp
import Platform

struct TouchTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touch-test",
        abstract: "Tap a grid of targets to measure a touch panel: accuracy, misses, jitter, edges, calibration.",
        discussion: """
        Shows the touch overlay on a plain canvas. Tap each yellow target in turn (hold one still \
        for a moment to measure jitter). At the end the figures are shown and printed, with a \
        LIBINPUT_CALIBRATION_MATRIX udev line when the taps are consistently off. \
        With --report it keeps measuring after the last target (try swipes and pinches) until \
        --timeout, SIGINT or SIGTERM, then also prints the panel report: each touchscreen's axis \
        ranges and resolution, its size from libinput in px/mm, the report rate, the contact slots \
        seen, each target's offset in px, the gestures recognised and any finger left down. Touches \
        do not say which device sent them: with several touchscreens, --input-device picks one.
        """)

    @Option(help: "Headless screen size WIDTHxHEIGHT when no display device is usable (default: 1280x800).", transform: ArgumentValues.mode)
    var size: KioskConfig.DisplayMode = .init(width: 1280, height: 800)
    @Option(parsing: .unconditional, help: "Give up after this many seconds.", transform: ArgumentValues.number) var timeout: Double?
    @Flag(help: "Keep measuring after the last target; print the panel report (see above) at the end.")
    var report = false
    @OptionGroup var general: GeneralOptions
    @OptionGroup(title: "Screen") var screenOptions: ScreenOptions
    @OptionGroup(title: "Input") var input: InputOptions

    mutating func run() throws {
        let config = try general.resolvedConfig([screenOptions, input])
        let logger = Bootstrap.logger(level: config.logLevel.loggerLevel)
        let loop = try EventLoop()
        let opened = try Bootstrap.openScreen(config.display, headlessSize: size, logger: logger)
        let screen = TouchLabScreen(content: .touchTest, display: opened.display, loop: loop, logger: logger,
                                    showsOverlay: true, allowsToggle: false, rotation: opened.mapping.rotation)
        try screen.start()
        if !report {
            screen.touchTest?.onComplete = { [weak loop] _ in
                // Leave the figures on screen a moment, then stop.
                loop?.addTimer(after: 5) { screen.host.stop() }
            }
        }
        let input = try openInput(Bootstrap.inputBackend(config.input.backend),
                                  configuration: InputConfiguration(devices: config.input.devices),
                                  mapping: opened.mapping, logger: logger) { screen.handle($0) }
        try input?.attach(to: loop)
        defer { input?.close() }
        if let timeout { loop.addTimer(after: timeout) { screen.host.stop() } }
        try screen.host.run()
        if let view = screen.touchTest {
            for line in view.session.reportLines(deviceName: view.deviceName) { print(line) }
            if report {
                print(view.session.pixelOffsetLine())
                for line in screen.panelReport.lines(panelSize: view.session.geometry.panelSize) { print(line) }
                for line in screen.lab.reportLines() { print("gesture \(line)") }
                print("gestures: " + TouchLabSummary.counts(screen.lab.gestures.map(\.gesture)))
            }
        }
    }
}
