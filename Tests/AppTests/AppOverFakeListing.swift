import Imaging
import Platform
@testable import PhotoKioskApp
import TestSupport
import Testing

/// A kiosk app over `root` on a 640×480 headless display whose scans list folders through
/// `listing` (a fake that fails or empties folders on cue), logging into `log`: started and
/// settled, with `onRescan` called after each rescan the watcher applies, for tests of how a
/// rescan treats photos it cannot list.
func startedApp(over root: RawPath, listing: any FolderListing, log: LogCapture,
                onRescan: @escaping () -> Void) throws -> KioskApp {
    let loop = try EventLoop(signals: [])
    let display = HeadlessDisplay(width: 640, height: 480)
    let startup = LibraryStartup(folders: [root.description], config: KioskConfig(), loop: loop, logger: log.logger,
                                 screenSize: display.size, listing: listing)
    let app = KioskApp(config: KioskConfig(), folders: [root.description], display: display, loop: loop,
                       thumbnailCacheDirectory: nil, logger: log.logger, startup: startup)
    try app.start()
    #expect(try app.runUntilSettled(timeout: 20))
    let applyRescan = app.libraryWatcher.onRescanned
    app.libraryWatcher.onRescanned = { applyRescan($0); onRescan() }
    return app
}
