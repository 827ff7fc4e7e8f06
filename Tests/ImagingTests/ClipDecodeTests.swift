import Basics
import Dispatch
import Graphics
import Testing
import TestSupport
@testable import Imaging

/// Issue 35, first slice: clips are decoded to their first frame (the poster) through GStreamer,
/// with their duration. The clips are made by gst-launch-1.0 at test time.
@Suite("Video clip posters", .enabled(if: ClipFixture.canRun,
                                      "GStreamer's tools or plugins are missing (scripts/install-deps.sh installs them)"))
struct ClipDecodeTests {
    let scratch = ScratchDirectory()
    var dir: String { scratch.path.description }

    /// One frame at 30 frames a second, the tolerance of a duration.
    static let frame = Duration.nanoseconds(33_333_334)

    func channels(_ bitmap: Bitmap, x: Int, y: Int) -> (r: Int, g: Int, b: Int) {
        let pixel = bitmap.pixel(x: x, y: y)
        return (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
    }

    func near(_ got: (r: Int, g: Int, b: Int), _ want: (Int, Int, Int), within tolerance: Int = 24) -> Bool {
        abs(got.r - want.0) <= tolerance && abs(got.g - want.1) <= tolerance && abs(got.b - want.2) <= tolerance
    }

    func within(_ duration: Duration?, _ expected: Duration) -> Bool {
        guard let duration else { return false }
        return duration >= expected - Self.frame && duration <= expected + Self.frame
    }

    @Test("a WebM clip's poster is the pattern's colour at the clip's size, with its duration")
    func webmPoster() throws {
        let path = try ClipFixture.write(pattern: "red", width: 320, height: 240, frames: 60, as: .webm, to: dir, name: "red")
        let poster = try ImageDecoder.decode(path: path)
        #expect(poster.info.format == .matroskaClip)
        #expect(poster.bitmap.size == Size(width: 320, height: 240))
        #expect(poster.originalSize == Size(width: 320, height: 240))
        #expect(near(channels(poster.bitmap, x: 160, y: 120), (255, 0, 0)), "\(channels(poster.bitmap, x: 160, y: 120))")
        #expect(within(poster.info.clipDuration, .seconds(2)), "\(String(describing: poster.info.clipDuration))")
    }

    @Test("an H.264 MP4's poster shows the SMPTE bars in their order, fitted inside a box")
    func mp4PosterBars() throws {
        let path = try ClipFixture.write(pattern: "smpte", width: 448, height: 252, frames: 45, as: .mp4, to: dir, name: "bars")
        let poster = try ImageDecoder.decode(path: path, fitting: Size(width: 224, height: 224))
        #expect(poster.info.format == .mp4Clip)
        #expect(poster.bitmap.size == Size(width: 224, height: 126))
        #expect(poster.originalSize == Size(width: 448, height: 252))
        #expect(within(poster.info.clipDuration, .milliseconds(1500)), "\(String(describing: poster.info.clipDuration))")
        // The top two thirds: videotestsrc's seven full-level bars, white, yellow, cyan, green,
        // magenta, red, blue.
        let bars = [(255, 255, 255), (255, 255, 0), (0, 255, 255), (0, 255, 0), (255, 0, 255), (255, 0, 0), (0, 0, 255)]
        for (index, bar) in bars.enumerated() {
            let x = (2 * index + 1) * poster.bitmap.width / 14
            let got = channels(poster.bitmap, x: x, y: poster.bitmap.height / 3)
            #expect(near(got, bar), "bar \(index) at x \(x): \(got)")
        }
    }

    @Test("a clip recorded rotated (a phone held upright) shows upright: the track's 90° matrix is applied")
    func rotatedClip() throws {
        let path = try ClipFixture.write(pattern: "smpte", width: 320, height: 180, frames: 10, as: .mp4, to: dir, name: "upright")
        try ClipFixture.rotateQuarterTurn(path)
        let poster = try ImageDecoder.decode(path: path)
        #expect(poster.bitmap.size == Size(width: 180, height: 320))
        #expect(poster.originalSize == Size(width: 180, height: 320))
        // Turned clockwise: the bars that ran left to right now run top to bottom, on the right.
        #expect(near(channels(poster.bitmap, x: 119, y: 11), (255, 255, 255)), "\(channels(poster.bitmap, x: 119, y: 11))")
        #expect(near(channels(poster.bitmap, x: 119, y: 308), (0, 0, 255)), "\(channels(poster.bitmap, x: 119, y: 308))")
    }

    @Test("a clip's thumbnail covers the cell and brings the duration and the clip's size")
    func thumbnailThroughThePhotoDecoder() throws {
        let path = try ClipFixture.write(pattern: "blue", width: 320, height: 180, frames: 15, as: .webm, to: dir, name: "blue")
        let loaded = try PhotoFileDecoder().decode(ImageRequest(key: ImageKey(path: RawPath(path), size: .thumbnail(edge: 64))))
        #expect(loaded.bitmap.size == Size(width: 114, height: 64))
        #expect(loaded.originalSize == Size(width: 320, height: 180))
        #expect(within(loaded.clipDuration, .milliseconds(500)), "\(String(describing: loaded.clipDuration))")
        #expect(near(channels(loaded.bitmap, x: 57, y: 32), (0, 0, 255)))
    }

    @Test("a probe reads the clip's size and duration")
    func probe() throws {
        let path = try ClipFixture.write(pattern: "green", width: 176, height: 144, frames: 30, as: .mp4, to: dir, name: "green")
        let info = try ImageDecoder.probe(path: path)
        #expect(info.format == .mp4Clip)
        #expect(info.pixelSize == Size(width: 176, height: 144))
        #expect(within(info.clipDuration, .seconds(1)))
    }

    @Test("a truncated or garbage clip fails within the preroll bound with GStreamer's message",
          arguments: ["truncated mp4", "garbage after an EBML header", "garbage after an ftyp box"])
    func damagedClipsFailFast(damage: String) throws {
        let source = try ClipFixture.write(pattern: "smpte", width: 320, height: 240, frames: 30, as: .mp4, to: dir, name: "whole")
        let whole = try FileReader.read(path: source)
        var random = SeededRandom(seed: 35)
        let garbage = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
        let bytes: [UInt8]
        switch damage {
        case "truncated mp4": bytes = Array(whole.prefix(whole.count / 2))
        case "garbage after an EBML header": bytes = [0x1A, 0x45, 0xDF, 0xA3] + garbage
        default: bytes = Array(whole.prefix(32)) + garbage
        }
        let path = dir + "/damaged.mp4"
        try FileReader.write(bytes, to: path)
        // A gate of its own: the time measured is GStreamer's, not a wait behind the other tests' posters.
        let gate = DecodeMemoryGate()
        let started = ContinuousClock.now
        let error = imagingError { () throws(ImagingError) in
            try ImageDecoder.decode(path: RawPath(path), fitting: Size(width: 64, height: 64), memoryGate: gate)
        }
        let took = ContinuousClock.now - started
        #expect(error?.kind == .corrupt, "\(String(describing: error))")
        #expect(error?.fileName == "damaged.mp4")
        #expect(error?.message.hasPrefix("cannot decode the ") == true)
        #expect((error?.message.count ?? 0) > "cannot decode the MP4/QuickTime clip: ".count, "\(String(describing: error))")
        #expect(took < .milliseconds(Int64(ClipDecoder.prerollTimeoutMilliseconds) + 1000), "took \(took)")
    }

    @Test("workers decode different clips at once, each its own poster and length")
    func parallelPosters() throws {
        let clips = [("red", 30, ClipFixture.Container.webm, (255, 0, 0)), ("blue", 45, .mp4, (0, 0, 255)),
                     ("green", 60, .webm, (0, 255, 0)), ("white", 75, .mp4, (255, 255, 255))]
        let paths = try clips.map { try ClipFixture.write(pattern: $0.0, width: 160, height: 120, frames: $0.1, as: $0.2, to: dir, name: $0.0) }
        let results = Locked<[Int: DecodedImage]>([:])
        DispatchQueue.concurrentPerform(iterations: 12) { n in
            guard let poster = try? ImageDecoder.decode(path: paths[n % 4], fitting: Size(width: 80, height: 80)) else { return }
            results.withLock { $0[n] = poster }
        }
        let posters = results.withLock { $0 }
        #expect(posters.count == 12)
        for (n, poster) in posters {
            let clip = clips[n % 4]
            #expect(near(channels(poster.bitmap, x: 40, y: 30), clip.3), "\(clip.0) on worker \(n)")
            #expect(within(poster.info.clipDuration, .nanoseconds(Int64(clip.1) * 1_000_000_000 / 30)), "\(clip.0) on worker \(n)")
        }
    }

    @Test("posters reserve their working memory at the decode gate: on a small budget they run one at a time")
    func postersWaitAtTheMemoryGate() throws {
        let path = try ClipFixture.write(pattern: "smpte", width: 320, height: 240, frames: 10, as: .webm, to: dir, name: "gate")
        let gate = DecodeMemoryGate(budget: ClipDecoder.workingBytesEstimate)
        let decoded = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            guard (try? ImageDecoder.decode(path: RawPath(path), fitting: Size(width: 64, height: 64), memoryGate: gate)) != nil
            else { return }
            decoded.withLock { $0 += 1 }
        }
        #expect(decoded.withLock { $0 } == 4)
        #expect(gate.mostConcurrent == 1)
        #expect(gate.runningCount == 0 && gate.waitingCount == 0)
    }

    @Test("a clip given as bytes is refused, not read as something else")
    func bytesAreRefused() throws {
        let path = try ClipFixture.write(pattern: "red", width: 64, height: 48, frames: 3, as: .webm, to: dir, name: "tiny")
        let error = imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: FileReader.read(path: path)) }
        #expect(error?.kind == .unsupported)
        #expect(error?.message.contains("from its file") == true, "\(String(describing: error))")
    }
}

/// Recognition by the first bytes: needs no GStreamer.
@Suite("Video clip sniffing")
struct ClipSniffTests {
    func ftyp(_ brands: [String]) -> [UInt8] {
        let body = Array(brands[0].utf8) + [0, 0, 2, 0] + brands.dropFirst().flatMap { Array($0.utf8) }
        return [0, 0, 0, UInt8(8 + body.count)] + Array("ftyp".utf8) + body + [UInt8](repeating: 0, count: 16)
    }

    @Test("video brands are clips", arguments: [["isom", "isom", "iso2"], ["mp42", "mp41"], ["qt  ", "qt  "],
                                                ["M4V ", "M4V ", "M4A ", "mp42"], ["3gp5", "3gp5"], ["avc1", "isom"],
                                                ["dash", "iso6"], ["XAVC", "XAVC", "mp42"]])
    func videoBrands(brands: [String]) {
        #expect(ImageFormat.sniff(ftyp(brands)) == .mp4Clip)
        #expect(ImageFormat.sniff(ftyp(brands))?.isClip == true)
    }

    @Test("HEIF and AVIF stills stay stills, whatever else they list")
    func stillBrands() {
        #expect(ImageFormat.sniff(ftyp(["heic", "mif1", "heic", "iso8"])) == .heif)
        #expect(ImageFormat.sniff(ftyp(["mif1", "mif1", "heic", "isom"])) == .heif)
        #expect(ImageFormat.sniff(ftyp(["avif", "mif1", "miaf", "mp41"])) == .avif)
        #expect(ImageFormat.sniff(ftyp(["msf1", "msf1", "iso8"])) == .heif)
        #expect(ImageFormat.heif.isClip == false && ImageFormat.avif.isClip == false)
    }

    @Test("real HEIC and AVIF files from heif-enc are stills, not clips", arguments: [EncodedFixture.Kind.heic, .avif])
    func encodedStills(kind: EncodedFixture.Kind) throws {
        let scratch = ScratchDirectory()
        let path = try EncodedFixture.write(Fixtures.scene(width: 64, height: 48), as: kind, to: scratch.path.description, name: "still")
        let format = try #require(ImageFormat.sniff(FileReader.read(path: path)))
        #expect(format == (kind == .heic ? .heif : .avif))
        #expect(!format.isClip)
    }

    @Test("audio-only and other ISO files are not clips")
    func notClips() {
        #expect(ImageFormat.sniff(ftyp(["M4A ", "M4A ", "mp42", "isom"])) == nil)
        #expect(ImageFormat.sniff(ftyp(["crx ", "crx "])) == nil)
        #expect(ImageFormat.sniff([0x1A, 0x45, 0xDF]) == nil)   // EBML cut short
    }

    @Test("Matroska and WebM by their EBML header")
    func matroska() {
        #expect(ImageFormat.sniff([0x1A, 0x45, 0xDF, 0xA3, 0x01, 0, 0, 0]) == .matroskaClip)
        #expect(ImageFormat.matroskaClip.rawValue == "mkv" && ImageFormat.mp4Clip.rawValue == "mp4")
    }
}
