import Basics
import Graphics
import Testing
import TestSupport
@testable import Imaging
#if canImport(Glibc)
import Glibc
#endif

/// Issue 35 item 2: a Motion Photo's embedded MP4 plays through `ClipPlayer` from an anonymous
/// file in memory. The photo is made here: a gst-launch clip appended to a JPEG with Google's XMP.
/// Serialized: the release test looks at this process's descriptors.
@Suite("Motion Photo clip in memory", .serialized,
       .enabled(if: ClipFixture.canRun, "GStreamer's tools or plugins are missing (scripts/install-deps.sh installs them)"))
struct MotionPhotoClipTests {
    let scratch = ScratchDirectory()

    /// A Motion Photo whose video is `frames` frames of a solid red 320×240 H.264 clip.
    func writeMotionPhoto(name: String = "PXL_1.MP.jpg") throws -> (path: RawPath, video: [UInt8], file: [UInt8]) {
        let clip = try ClipFixture.write(pattern: "red", width: 320, height: 240, frames: 30, as: .mp4,
                                         to: scratch.path.description, name: "red")
        let video = try #require(readFile(RawPath(clip)))
        let photo = try LivePhotoMetadataTests.motionPhoto(xmp: LivePhotoMetadataTests.containerXMP(length: video.count), video: video)
        let path = scratch.path.appending(name)
        writeFile(path, photo)
        return (path, video, photo)
    }

    /// Where /proc/self/fd/N leads ("/memfd:motion-photo (deleted)" for the clip), nil when N is closed.
    func linkTarget(_ path: RawPath) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = readlink(path.description, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test("the embedded MP4 is copied byte for byte into memory and plays in a ClipPlayer")
    func playsFromMemory() throws {
        let (photo, video, file) = try writeMotionPhoto()
        #expect(MotionPhotoClip.videoRange(in: photo) == (file.count - video.count)..<file.count)
        let clip = try MotionPhotoClip(photo: photo)
        #expect(clip.range == (file.count - video.count)..<file.count)
        #expect(clip.format == .mp4Clip)
        #expect(clip.path.description.hasPrefix("/proc/self/fd/"))
        #expect(linkTarget(clip.path)?.hasPrefix("/memfd:motion-photo") == true, "\(linkTarget(clip.path) ?? "nil")")
        #expect(try FileReader.read(path: clip.path) == video, "the memory file holds exactly the video")

        let player = try clip.makePlayer(fitting: Size(width: 160, height: 160)) {}
        defer { player.stop() }
        player.play()
        var frames: [ClipPlayer.Frame] = []
        let end = ContinuousClock.now + .seconds(12)
        while frames.count < 3, ContinuousClock.now < end {
            if let frame = player.takeFrame() { frames.append(frame) }
            usleep(5_000)
        }
        let frame = try #require(frames.last, "no frame in 12 s: \(player.failure ?? "no failure")")
        #expect(frame.picture.makeBitmap().size == Size(width: 160, height: 120))
        let pixel = frame.picture.makeBitmap().pixel(x: 80, y: 60)
        let (r, g, b) = (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
        #expect(r > 230 && g < 30 && b < 30, "\(r) \(g) \(b)")
        #expect(player.failure == nil)
    }

    @Test("the memory file is closed when the clip is released")
    func releasedCloses() throws {
        let (photo, _, _) = try writeMotionPhoto()
        var clip: MotionPhotoClip? = try MotionPhotoClip(photo: photo)
        let path = try #require(clip?.path)
        #expect(linkTarget(path)?.hasPrefix("/memfd:motion-photo") == true)
        clip = nil
        #expect(linkTarget(path)?.hasPrefix("/memfd:motion-photo") != true, "still open: \(linkTarget(path) ?? "nil")")
    }

    @Test("photos without a video, or that cannot be read, throw and make no memory file")
    func failures() throws {
        let plain = scratch.path.appending("plain.jpg")
        writeFile(plain, try Fixtures.jpeg(Fixtures.gradient(width: 64, height: 48)))
        #expect { try MotionPhotoClip(photo: plain) } throws: { ($0 as? ImagingError)?.kind == .notAnImage }
        #expect(MotionPhotoClip.videoRange(in: plain) == nil)
        #expect(MotionPhotoClip.videoRange(in: scratch.path.appending("missing.jpg")) == nil)
        let notMarked = scratch.path.appending("not-marked.jpg")
        let (_, video, _) = try writeMotionPhoto(name: "unused.jpg")
        writeFile(notMarked, try LivePhotoMetadataTests.motionPhoto(
            xmp: LivePhotoMetadataTests.containerXMP(length: video.count, motion: "0"), video: video))
        #expect { try MotionPhotoClip(photo: notMarked) } throws: { ($0 as? ImagingError)?.kind == .notAnImage }
        #expect { try MotionPhotoClip(photo: scratch.path.appending("missing.jpg")) } throws: { ($0 as? ImagingError)?.kind == .io }
    }
}
