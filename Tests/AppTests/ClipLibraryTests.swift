import TestSupport
import Testing
import Graphics
import Imaging
import Platform
@testable import PhotoKioskApp
import Widgets

/// Issue 35, first slice: clips in the library show their poster with a length badge, the
/// same after a restart, when the poster and its length come from the thumbnail disk cache.
@Suite("Clips in the library", .enabled(if: ClipFixture.canRun,
                                        "GStreamer's tools or plugins are missing (scripts/install-deps.sh installs them)"))
struct ClipLibraryTests {
    let scratch = ScratchDirectory()

    func makeApp(folder: String, cache: String) throws -> KioskApp {
        try startedGridApp(folders: [folder], thumbnailCacheDirectory: cache).app
    }

    @Test("a clip is a grid item with its poster and its length, also from the disk cache after a restart")
    func clipInTheGrid() throws {
        let folder = scratch.newFolder("library"), cache = scratch.newFolder("cache")
        _ = try ClipFixture.write(pattern: "red", width: 320, height: 240, frames: 75, as: .webm, to: folder, name: "a-clip")
        let photo = Bitmap(width: 320, height: 200)
        Canvas(target: photo).clear(.blue)
        try FileReader.write(try JPEGEncoder.encode(photo, options: .init(quality: 95)), to: folder + "/b-photo.jpg")
        for run in ["decoded", "from the disk cache"] {
            let app = try makeApp(folder: folder, cache: cache)
            #expect(try app.runUntilSettled(timeout: 20), "\(run)")
            #expect(app.photos.count == 2, "\(run)")
            let clip = try #require(app.grid.cell(at: 0))
            guard case .image(let poster) = clip.state else {
                Issue.record("\(run): the clip's cell shows \(clip.state)")
                continue
            }
            let centre = poster.pixel(x: poster.width / 2, y: poster.height / 2)
            #expect(centre >> 16 & 0xFF > 200 && centre >> 8 & 0xFF < 50 && centre & 0xFF < 50, "\(run): \(centre)")
            #expect(clip.clipDuration.map { $0 >= .milliseconds(2466) && $0 <= .milliseconds(2534) } == true,
                    "\(run): \(String(describing: clip.clipDuration))")
            #expect(app.grid.cell(at: 1)?.clipDuration == nil, "\(run)")
        }
    }
}
