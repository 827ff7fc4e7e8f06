import Graphics
import Imaging
import Platform
import TestSupport
import Testing
@testable import PhotoKioskApp

/// Issue 34 item 1: a photo source added on the phone page is shown from its folder without a
/// restart, and a removed one's photos leave the grid (their files stay).
@Suite(.serialized) struct SourceFoldersAppTests {
    let scratch = ScratchDirectory()

    func photos(_ count: Int, in folder: String, prefix: String) throws {
        makeDirectory(RawPath(folder))
        for i in 0..<count {
            let b = Bitmap(width: 24, height: 16)
            Canvas(target: b).clear(Color(red: UInt8(40 * i), green: 90, blue: 200))
            try FileReader.write(try JPEGEncoder.encode(b, options: .init()), to: "\(folder)/\(prefix)\(i).jpg")
        }
    }

    @Test func aSourceAddedOnThePageIsShownAndARemovedOneLeaves() throws {
        let own = scratch.newFolder("own"), state = scratch.newFolder("state")
        try photos(2, in: own, prefix: "own")
        // photokiosk-sync has filled the source's folder (or is about to).
        try photos(3, in: KioskPaths.sourceFolder("family", in: state), prefix: "family")
        let app = KioskApp(config: KioskConfig(), folders: [own], display: HeadlessDisplay(width: 320, height: 240),
                           loop: try EventLoop(signals: []), thumbnailCacheDirectory: nil, stateDirectory: state,
                           logger: .init(label: "test"))
        try app.start()
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.photos.count == 2)

        var withSource = app.config
        withSource.sources = [KioskConfig.Source(name: "family", remote: "nextcloud:Photos")]
        app.applySettings(withSource)
        #expect(app.libraryFolders == [own, KioskPaths.sourceFolder("family", in: state)])
        #expect(try app.host.run(until: { app.photos.count == 5 }, timeout: 20), "the source's 3 photos join the grid")
        // Watched from then on: a photo the next sync brings appears by itself.
        try photos(1, in: KioskPaths.sourceFolder("family", in: state), prefix: "later")
        #expect(try app.host.run(until: { app.photos.count == 6 }, timeout: 20), "a photo synced later appears")

        var without = app.config
        without.sources = []
        app.applySettings(without)
        #expect(app.libraryFolders == [own])
        #expect(try app.host.run(until: { app.photos.count == 2 }, timeout: 20), "the removed source's photos leave the grid")
        #expect(fileExists(RawPath(KioskPaths.sourceFolder("family", in: state) + "/family0.jpg")), "its files stay")
    }
}
