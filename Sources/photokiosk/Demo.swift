import ArgumentParser
import Graphics
import Imaging
import Logging
import PhotoKioskApp
import Platform
import UI
import Widgets

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Demo screens that exercise the UI core.",
        subcommands: [ScrollDemo.self, TilesDemo.self])
}

struct ScrollDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scroll",
        abstract: "A 4000x4000 board to drag, fling, bounce and pinch-zoom (double tap zooms in, two-finger tap out).")

    @Option(name: .customLong("display"), help: "auto, drm, fbdev or headless.") var backend: KioskConfig.DisplayBackend = .auto
    @Option(help: "0, 90, 180 or 270.") var rotation: KioskConfig.Rotation = .none
    @Option(help: "Headless screen size WIDTHxHEIGHT (default: 1920x1080).", transform: ArgumentValues.mode) var size: KioskConfig.DisplayMode = .init(width: 1920, height: 1080)
    @Option(help: "Where the headless screen writes its PNG.") var out: String = "photokiosk-demo-scroll.png"

    func run() throws {
        let logger = Bootstrap.logger(level: .info)
        let loop = try EventLoop()
        let opened = try Bootstrap.openDemoScreen(backend: backend, rotation: rotation, headlessSize: size, logger: logger)
        let host = ScreenHost(display: opened.display, loop: loop, logger: logger)
        let demo = ScrollDemoView(frame: Rect(size: opened.display.size))
        host.window.addSubview(demo)
        host.onResize = { demo.frame = Rect(size: $0) }
        try host.attachDisplay()
        if let headless = opened.display as? HeadlessDisplay {
            try host.run(until: { true }, timeout: 5)
            try PNGEncoder.write(headless.frameBuffer, to: out)
            print("No display device could be used; the headless screen is in \(out)")
            return
        }
        let input = try openInput(.auto, mapping: opened.mapping, logger: logger) { [weak host] in host?.handle($0) }
        try input?.attach(to: loop)
        defer { input?.close() }
        try host.run()
    }
}
