import Imaging
import Platform
@testable import PhotoKioskApp
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 35 item 2: the app pairs a Live Photo's halves by name as they are listed, then reads
/// both content identifiers off the loop and splits the halves whose identifiers differ: at the
/// start and for files that arrive while it runs.
@Suite("Live Photo pairs confirmed by their content identifiers")
struct LivePhotoConfirmationTests {
    static let id = "FFCBAC24-E547-4BBC-AF47-38B1A3D845E3"
    static let other = "0A1B2C3D-E547-4BBC-AF47-38B1A3D845E3"

    func items(_ app: KioskApp) -> [String] {
        app.photos.photos.map { photo in
            let name = String(decoding: photo.path.lastComponent, as: UTF8.self)
            return photo.motion.map { name + "+" + String(decoding: $0.lastComponent, as: UTF8.self) } ?? name
        }
    }

    @Test("at the start and for files arriving later, different identifiers make two items, same or unreadable ones one")
    func confirmed() throws {
        let scratch = ScratchDirectory()
        func pair(_ stem: String, still: String?, clip: String?) throws {
            writeFile(scratch.path.appending(stem + ".JPG"), try LivePhotoFixtures.stillJPEG(identifier: still))
            writeFile(scratch.path.appending(stem + ".MOV"), LivePhotoFixtures.movie(identifier: clip))
        }
        try pair("IMG_1", still: Self.id, clip: Self.id)
        try pair("IMG_2", still: Self.id, clip: Self.other)
        try pair("IMG_3", still: nil, clip: Self.id)
        let loop = try EventLoop(signals: [])
        let app = KioskApp(config: KioskConfig(), folders: [scratch.path.description], display: HeadlessDisplay(width: 400, height: 300),
                           loop: loop, thumbnailCacheDirectory: nil, logger: .init(label: "test"))
        try app.start()
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(items(app) == ["IMG_1.JPG+IMG_1.MOV", "IMG_2.JPG", "IMG_2.MOV", "IMG_3.JPG+IMG_3.MOV"])
        #expect(app.grid.itemCount == 4)
        #expect((0..<4).map { app.grid.cell(at: $0)?.isLivePhoto } == [true, false, false, true], "the LIVE badges")

        // Through the watcher: a pair whose identifiers differ, and one whose agree.
        try pair("IMG_4", still: Self.id, clip: Self.other)
        try pair("IMG_5", still: Self.other, clip: Self.other)
        let want = ["IMG_1.JPG+IMG_1.MOV", "IMG_2.JPG", "IMG_2.MOV", "IMG_3.JPG+IMG_3.MOV", "IMG_4.JPG", "IMG_4.MOV",
                    "IMG_5.JPG+IMG_5.MOV"]
        let end = loop.now + 20
        while loop.now < end, items(app) != want || app.livePhotoConfirmation.isBusy { _ = try loop.runOnce(timeout: 0.1) }
        #expect(items(app) == want)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.grid.itemCount == 7)

        // Deleted and renamed on disk, through the watcher: IMG_1's still goes (its clip is an item
        // again), IMG_3's clip is renamed away (the still loses its motion).
        unlink(scratch.path.appending("IMG_1.JPG").description)
        rename(scratch.path.appending("IMG_3.MOV"), scratch.path.appending("clip.MOV"))
        let after = ["clip.MOV", "IMG_1.MOV", "IMG_2.JPG", "IMG_2.MOV", "IMG_3.JPG", "IMG_4.JPG", "IMG_4.MOV", "IMG_5.JPG+IMG_5.MOV"]
        let end2 = loop.now + 20
        while loop.now < end2, items(app) != after { _ = try loop.runOnce(timeout: 0.1) }
        #expect(items(app) == after)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.grid.cell(at: 4)?.isLivePhoto == false && app.grid.cell(at: 7)?.isLivePhoto == true)
    }
}
