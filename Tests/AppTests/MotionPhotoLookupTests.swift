import Graphics
import Imaging
import Platform
import TestSupport
import Testing
@testable import PhotoKioskApp

/// The Motion Photo lookup the album and the slideshow share: a JPEG is read once for the file as
/// it is, and again once the file has changed (a photo replaced under the same name).
@Suite struct MotionPhotoLookupTests {
    let scratch = ScratchDirectory()

    func photo(_ path: String, size: Int, modified: Int64) -> Photo {
        Photo(id: PhotoID(rawValue: 1), file: ScannedFile(path: RawPath(path), type: .jpeg, identity: FileIdentity(device: 1, inode: 1),
                                                          size: Int64(size), modificationSeconds: modified))
    }

    /// Runs the loop until `lookup` answers for `photo`.
    func answer(_ lookup: MotionPhotoLookup, _ photo: Photo, on loop: EventLoop) throws -> Bool? {
        var found: Bool?
        lookup.look(into: photo) { found = $0 }
        let end = loop.now + 10
        while found == nil, loop.now < end { _ = try loop.runOnce(timeout: 0.05) }
        return found
    }

    @Test func aChangedFileIsLookedIntoAgain() throws {
        let loop = try EventLoop(signals: [])
        let lookup = MotionPhotoLookup(mailbox: loop.mailbox)
        let path = scratch.path.description + "/PXL_1.jpg"
        let jpeg = try JPEGEncoder.encode(Bitmap(width: 16, height: 16), options: .init(quality: 90))
        try FileReader.write(jpeg, to: path)
        let plain = photo(path, size: jpeg.count, modified: 1)
        #expect(lookup.hasVideo(plain) == nil)
        #expect(try answer(lookup, plain, on: loop) == false)
        #expect(lookup.hasVideo(plain) == false)

        // The same photo, now with a video after it (a size and time of its own).
        let video: [UInt8] = [0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 0, 0] + Array("isommp42".utf8)
            + Array(repeating: 0, count: 64)
        let motion = LivePhotoFixtures.motionPhoto(jpeg: jpeg, xmp: LivePhotoFixtures.containerXMP(length: video.count), video: video)
        try FileReader.write(motion, to: path)
        let changed = photo(path, size: motion.count, modified: 2)
        #expect(lookup.hasVideo(changed) == nil, "the old answer was kept for a changed file")
        #expect(try answer(lookup, changed, on: loop) == true)
        #expect(lookup.hasVideo(plain) == nil, "the first file's answer is gone with it")
    }

    @Test func onlyJPEGsWithoutAPairedClipCanBeMotionPhotos() throws {
        let loop = try EventLoop(signals: [])
        let lookup = MotionPhotoLookup(mailbox: loop.mailbox)
        var live = photo("/photos/IMG_1.JPG", size: 10, modified: 1)
        live.motion = RawPath("/photos/IMG_1.MOV")
        #expect(lookup.hasVideo(live) == false)
        let png = Photo(id: PhotoID(rawValue: 2), file: ScannedFile(path: RawPath("/photos/a.png"), type: .png,
                                                                     identity: FileIdentity(device: 1, inode: 2), size: 10, modificationSeconds: 1))
        #expect(lookup.hasVideo(png) == false)
    }
}
