import Testing
import Graphics
import Imaging
import Platform
import TestSupport
@testable import PhotoKioskApp

/// Issue 30 item 9: the album's caption is the photo's own (XMP title here), none when it has
/// none, and, when configured, the file name without its extension.
@Suite struct AlbumCaptionTests {
    func makeFolder() throws -> ScratchDirectory {
        let scratch = ScratchDirectory()
        let bitmap = Bitmap(width: 320, height: 200)
        Canvas(target: bitmap).clear(.blue)
        let titled = JPEGEncoder.Options(quality: 90, markers: [MetadataFixtures.xmp(title: "Sunflowers by the wall", description: nil)])
        scratch.file("a-titled.jpg", bytes: try JPEGEncoder.encode(bitmap, options: titled))
        scratch.file("mate-nature-Garden.jpg", bytes: try JPEGEncoder.encode(bitmap, options: .init(quality: 90)))
        return scratch
    }

    func captions(fileNames: Bool, in scratch: ScratchDirectory) throws -> [String] {
        var config = KioskConfig()
        config.library.fileNameCaptions = fileNames
        let display = HeadlessDisplay(width: 800, height: 480)
        let app = KioskApp(config: config, folders: [scratch.path.description], display: display,
                           loop: try EventLoop(signals: []), thumbnailCacheDirectory: nil, logger: .init(label: "test"))
        try app.start()
        #expect(try app.runUntilSettled(timeout: 20))
        var shown: [String] = []
        for index in 0..<2 {
            app.openPhoto(at: index)
            #expect(try app.runUntilSettled(timeout: 20))
            shown.append(try #require(app.album).captionText)
            app.closePhoto()
            #expect(try app.runUntilSettled(timeout: 20))
        }
        return shown
    }

    @Test("The photo's own title, and nothing for a photo without one")
    func metadataOrNothing() throws {
        let scratch = try makeFolder()
        #expect(try captions(fileNames: false, in: scratch) == ["Sunflowers by the wall", ""])
    }

    @Test("With library.file_name_captions, the file name without its extension")
    func fileNameFallback() throws {
        let scratch = try makeFolder()
        #expect(try captions(fileNames: true, in: scratch) == ["Sunflowers by the wall", "mate-nature-Garden"])
    }
}
