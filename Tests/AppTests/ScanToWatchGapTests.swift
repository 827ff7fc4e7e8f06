import Glibc
import Imaging
import Platform
@testable import PhotoKioskApp
import TestSupport
import Testing

/// A photo that lands in a folder after the first scan read it and before the folder watch began
/// makes no inotify event; the folder's stamp from before the read shows it.
@Suite struct ScanToWatchGapTests {
    @Test("a photo added between the scan and the watch still appears")
    func photoAddedBeforeTheWatchBegins() throws {
        let scratch = ScratchDirectory()
        for n in 0..<3 { scratch.file("lib/IMG_\(n).jpg", bytes: [1]) }
        let folder = scratch["lib"].description
        let loop = try EventLoop(signals: [])
        let logs = LogCapture()
        let startup = LibraryStartup(folders: [folder], config: KioskConfig(), loop: loop, logger: logs.logger)
        // The scan has listed the folder and waits for its first batch to be shown; the watch
        // begins only when the scan has finished. The photo arrives in between.
        let showFirstBatch = startup.intake.onFirstShown
        var scanFinishedWhenAdded: Bool?
        var app: KioskApp?
        startup.intake.onFirstShown = {
            scanFinishedWhenAdded = app?.isScanFinished
            scratch.file("lib/IMG_late.jpg", bytes: [1])
            showFirstBatch()
        }
        app = KioskApp(config: KioskConfig(), folders: [folder], display: HeadlessDisplay(width: 640, height: 480),
                       loop: loop, thumbnailCacheDirectory: nil, logger: logs.logger, startup: startup)
        let kiosk = try #require(app)
        try kiosk.start()
        #expect(try kiosk.runUntilSettled(timeout: 30))
        #expect(scanFinishedWhenAdded == false, "the photo came before the scan ended")
        let deadline = loop.now + 20
        while kiosk.photos.count < 4 && loop.now < deadline {
            _ = try loop.runOnce(timeout: 0.05)
            kiosk.host.pump()
        }
        #expect(kiosk.photos.paths.map(\.description).sorted() == (0..<3).map { "\(folder)/IMG_\($0).jpg" } + ["\(folder)/IMG_late.jpg"])
        #expect(logs.messages.contains { $0.contains("changed while it was scanned") }, "\(logs.messages)")
    }

    @Test("an unchanged folder is not scanned again")
    func unchangedFolderIsNotRescanned() throws {
        let scratch = ScratchDirectory()
        for n in 0..<3 { scratch.file("lib/IMG_\(n).jpg", bytes: [1]) }
        let loop = try EventLoop(signals: [])
        let logs = LogCapture()
        let app = KioskApp(config: KioskConfig(), folders: [scratch["lib"].description],
                           display: HeadlessDisplay(width: 640, height: 480),
                           loop: loop, thumbnailCacheDirectory: nil, logger: logs.logger)
        try app.start()
        #expect(try app.runUntilSettled(timeout: 30))
        try loop.runUntilQuiet()
        #expect(app.photos.count == 3)
        #expect(!logs.messages.contains { $0.contains("changed while it was scanned") }, "\(logs.messages)")
    }
}
