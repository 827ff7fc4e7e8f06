import TestSupport
import Testing
import Glibc
import Graphics
import Imaging
import Platform
import UI
@testable import PhotoKioskApp
import Widgets

/// Issue 35 item 2: a Live Photo (still + .MOV of its name) and a Motion Photo (a JPEG with its
/// video inside) are one page each in the album, shown as the photo; a finger held on it plays
/// the motion until it lifts, then the photo shows again. A plain photo takes no hold.
@Suite("Live Photos and Motion Photos held in the album", .serialized,
       .enabled(if: ClipFixture.canRun, "GStreamer's tools or plugins are missing (scripts/install-deps.sh installs them)"))
struct MotionHoldAppTests {
    let scratch = ScratchDirectory()

    func jpeg(_ color: Color) throws -> [UInt8] {
        let photo = Bitmap(width: 320, height: 240)
        Canvas(target: photo).clear(color)
        return try JPEGEncoder.encode(photo, options: .init(quality: 95))
    }

    /// IMG_0001.JPG (red) with IMG_0001.MOV (blue), PXL_0002.MP.jpg (green, a blue video inside),
    /// zz-plain.jpg (red, nothing inside), in that (name) order.
    func makeFolder() throws -> String {
        let folder = scratch.newFolder("library")
        try FileReader.write(try jpeg(.red), to: folder + "/IMG_0001.JPG")
        let clip = try ClipFixture.write(pattern: "blue", width: 320, height: 240, frames: 60, as: .mp4, to: folder, name: "blue")
        let video = try FileReader.read(path: clip, maxBytes: .max)
        rename(clip, folder + "/IMG_0001.MOV")
        let motion = LivePhotoFixtures.motionPhoto(jpeg: try jpeg(.green), xmp: LivePhotoFixtures.containerXMP(length: video.count),
                                                   video: video)
        try FileReader.write(motion, to: folder + "/PXL_0002.MP.jpg")
        try FileReader.write(try jpeg(.red), to: folder + "/zz-plain.jpg")
        return folder
    }

    func send(_ app: KioskApp, _ phase: Platform.TouchPhase, at time: Double) {
        app.handle(.touch(slot: 0, phase: phase, location: Point(x: 400, y: 300), time: time))
        app.handle(.frame(time: time))
        app.host.pump()
    }

    func centre(_ display: HeadlessDisplay) -> Color { display.frameBuffer.color(x: 400, y: 300) }
    func isBlue(_ c: Color) -> Bool { c.blue > 200 && c.red < 60 && c.green < 60 }

    @Test("a hold plays a Live Photo's .MOV and a Motion Photo's video; lifting shows the photo; a plain photo ignores it")
    func holdPlaysMotion() throws {
        let (app, display) = try startedGridApp(folders: [try makeFolder()], size: Size(width: 800, height: 600))
        #expect(try app.runUntilSettled(timeout: 30))
        #expect(app.photos.count == 3, "the .MOV is not an item of its own: \(app.photos.photos.map(\.path.description))")
        for (index, still) in [(0, Color.red), (1, Color.green)] {
            app.openPhoto(at: index)
            let view = try #require(app.album)
            let page = try #require(view.centerPage)
            // The page settles and (for the Motion Photo) its video is found: the hold is armed.
            try app.runLoop(for: 10) { page.holdRecognizer.isEnabled && page.isLoaded }
            #expect(page.holdRecognizer.isEnabled, "photo \(index) takes no hold")
            #expect(KioskAppTests().close(centre(display), still))
            send(app, .down, at: app.host.loop.now)
            try app.runLoop(for: 20) { isBlue(centre(display)) }
            #expect(isBlue(centre(display)), "photo \(index): the motion (blue) did not play while held: \(centre(display))")
            #expect(page.motionProgress == nil, "a Live Photo's motion has no progress bar")
            send(app, .up, at: app.host.loop.now)
            try app.runLoop(for: 5) { !isBlue(centre(display)) }
            #expect(KioskAppTests().close(centre(display), still), "photo \(index) after the hold: \(centre(display))")
            #expect(app.clips.item == nil)
        }
        app.openPhoto(at: 2)
        let page = try #require(app.album?.centerPage)
        try app.runLoop(for: 3)
        #expect(!page.holdRecognizer.isEnabled, "a plain photo arms a hold")
    }
}
