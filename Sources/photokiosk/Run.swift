import ArgumentParser
import Graphics
import Imaging
import Logging
import PhotoKioskApp
import Platform

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the photo grid on the screen (the default).")

    @OptionGroup var options: KioskOptions
    @Option(help: "Headless screen size WIDTHxHEIGHT (when no display device is usable).")
    var size: KioskConfig.DisplayMode = .init(width: 1920, height: 1080)
    @Option(help: "Where the headless screen writes its PNG.")
    var screenshot: String = "photokiosk-screen.png"
    @Option(help: "Seconds the headless screen waits for thumbnails before writing the PNG.")
    var settleTimeout: Double = 60

    mutating func run() throws {
        let config = try options.resolvedConfig()
        let logger = Bootstrap.logger(level: config.logLevel.loggerLevel)
        let folders = try Bootstrap.photoFolders(config: config, explicit: !options.folders.isEmpty, logger: logger)
        let loop = try EventLoop()
        var displayOptions = Bootstrap.displayOptions(config.display)
        displayOptions.headlessWidth = size.width
        displayOptions.headlessHeight = size.height
        let opened = try openDisplay(displayOptions, logger: logger)
        logger.info("screen: \(opened.display.name); photos: \(folders.joined(separator: ", "))")

        let app = KioskApp(config: config, folders: folders, display: opened.display, loop: loop,
                           thumbnailCacheDirectory: Bootstrap.cacheDirectory(config: config),
                           stateDirectory: Bootstrap.stateDirectory(config: config), logger: logger)
        try app.start()

        if let headless = opened.display as? HeadlessDisplay {
            let settled = try app.runUntilSettled(timeout: settleTimeout)
            if !settled { logger.warning("not every thumbnail arrived within \(settleTimeout) s; writing what is shown") }
            try PNGEncoder.write(headless.frameBuffer, to: screenshot)
            print("No display device could be used; the headless screen is in \(screenshot)")
            return
        }

        let input = try openInput(Bootstrap.inputBackend(config.input.backend),
                                  configuration: InputConfiguration(devices: config.input.devices),
                                  mapping: opened.mapping, logger: logger) { [weak app] event in app?.handle(event) }
        try input?.attach(to: loop)
        defer { input?.close() }
        // A different screen plugged in: touches map onto the new size.
        let relayout = app.host.onResize
        app.host.onResize = { [weak input] size in
            relayout?(size)
            input?.mapping = ScreenMapping(logicalSize: size, rotation: displayOptions.rotation)
        }
        try app.run()
    }
}
