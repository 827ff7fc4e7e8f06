import Graphics
import PhotoKioskApp
import Platform

/// The app as most app tests start it: 190-pixel thumbnails (the size their pixel checks of the
/// grid's cells assume) on a headless `size` screen over `folders`, with its own loop, started.
func startedGridApp(folders: [String], size: Size = Size(width: 800, height: 600),
                    thumbnailCacheDirectory: String? = nil) throws -> (app: KioskApp, display: HeadlessDisplay) {
    var config = KioskConfig()
    config.library.thumbnailSize = 190
    let display = HeadlessDisplay(width: Int(size.width), height: Int(size.height))
    let app = KioskApp(config: config, folders: folders, display: display, loop: try EventLoop(signals: []),
                       thumbnailCacheDirectory: thumbnailCacheDirectory, logger: .init(label: "test"))
    try app.start()
    return (app, display)
}

extension KioskApp {
    /// Runs the loop for `seconds` or until `done` (a playing clip keeps the app busy, so
    /// `runUntilSettled` would never return).
    func runLoop(for seconds: Double, until done: () -> Bool = { false }) throws {
        let end = host.loop.now + seconds
        while host.loop.now < end && !done() {
            try host.loop.runOnce(timeout: min(0.02, max(0, end - host.loop.now)))
            host.pump()
        }
    }
}
