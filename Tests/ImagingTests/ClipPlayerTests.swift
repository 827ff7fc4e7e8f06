import Basics
import Graphics
import Testing
import TestSupport
@testable import Imaging
#if canImport(Glibc)
import Glibc
#endif

/// Issue 35, second slice: a clip plays through `ClipPlayer` (video only, frames scaled by
/// GStreamer, taken on a worker thread). The clips are made by gst-launch-1.0 at test time.
/// Serialized: the teardown test counts the process's player threads.
@Suite("Video clip player", .serialized,
       .enabled(if: ClipFixture.canRun, "GStreamer's tools or plugins are missing (scripts/install-deps.sh installs them)"))
struct ClipPlayerTests {
    let scratch = ScratchDirectory()
    var dir: String { scratch.path.description }

    func channels(_ bitmap: Bitmap, x: Int, y: Int) -> (r: Int, g: Int, b: Int) {
        let pixel = bitmap.pixel(x: x, y: y)
        return (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
    }

    func near(_ got: (r: Int, g: Int, b: Int), _ want: (Int, Int, Int), within tolerance: Int = 24) -> Bool {
        abs(got.r - want.0) <= tolerance && abs(got.g - want.1) <= tolerance && abs(got.b - want.2) <= tolerance
    }

    /// The frames the player hands over within `duration`, polled as the loop would; then, on a
    /// loaded machine (make test runs builds beside it), for up to `limit` more until `enough`
    /// holds, so a slow start is not taken for a player that does not play.
    func frames(from player: ClipPlayer, for duration: Duration, until enough: ([ClipPlayer.Frame]) -> Bool = { _ in true },
                limit: Duration = .seconds(10)) -> [ClipPlayer.Frame] {
        var frames: [ClipPlayer.Frame] = []
        let end = ContinuousClock.now + duration, hardEnd = end + limit
        while ContinuousClock.now < end || (!enough(frames) && ContinuousClock.now < hardEnd) {
            if let frame = player.takeFrame() { frames.append(frame) }
            usleep(5_000)
        }
        return frames
    }

    /// A clip made by gst-launch-1.0 (`ClipFixture`), opened in a player that fits it in `box`.
    func openPlayer(pattern: String, width: Int, height: Int, frames: Int, as container: ClipFixture.Container,
                    name: String, fitting box: Size) throws -> ClipPlayer {
        let path = try ClipFixture.write(pattern: pattern, width: width, height: height, frames: frames, as: container, to: dir, name: name)
        return try ClipPlayer(path: RawPath(path), format: container == .mp4 ? .mp4Clip : .matroskaClip, fitting: box) {}
    }

    func rows(_ bitmap: Bitmap) -> [UInt32] {
        (0..<bitmap.height).flatMap { y in (0..<bitmap.width).map { bitmap.pixel(x: $0, y: y) } }
    }

    /// Threads of this process named `wanted` (a player's worker is "pk-clipN", its demuxer's
    /// streaming thread "demuxN:sink").
    func threads(named wanted: String) -> Int {
        guard let tasks = opendir("/proc/self/task") else { return -1 }
        defer { closedir(tasks) }
        var count = 0
        while let entry = readdir(tasks) {
            let id = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            // fopen, not FileReader: a /proc file's size reads as 0.
            guard id.first?.isNumber == true, let comm = fopen("/proc/self/task/\(id)/comm", "r") else { continue }
            var name = [CChar](repeating: 0, count: 32)
            if fgets(&name, Int32(name.count), comm) != nil,
               String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: "\n").first.map(String.init) == wanted {
                count += 1
            }
            fclose(comm)
        }
        return count
    }

    @Test("a playing WebM clip's frames are the pattern's colour, fitted inside the box")
    func playsColour() throws {
        let player = try openPlayer(pattern: "red", width: 320, height: 240, frames: 30, as: .webm, name: "red",
                                    fitting: Size(width: 160, height: 160))
        defer { player.stop() }
        #expect(player.duration.map { $0 > .milliseconds(900) && $0 < .milliseconds(1100) } == true,
                "\(String(describing: player.duration))")
        player.play()
        let got = frames(from: player, for: .milliseconds(600), until: { !$0.isEmpty })
        let frame = try #require(got.last, "no frame in 10.6 s")
        #expect(frame.picture.makeBitmap().size == Size(width: 160, height: 120))
        #expect(near(channels(frame.picture.makeBitmap(), x: 80, y: 60), (255, 0, 0)), "\(channels(frame.picture.makeBitmap(), x: 80, y: 60))")
        #expect(player.failure == nil)
    }

    @Test("a clip recorded rotated plays upright: its frames are portrait and the bars run top to bottom")
    func playsRotatedUpright() throws {
        let path = try ClipFixture.write(pattern: "smpte", width: 320, height: 180, frames: 30, as: .mp4, to: dir, name: "upright")
        try ClipFixture.rotateQuarterTurn(path)
        let player = try ClipPlayer(path: RawPath(path), format: .mp4Clip, fitting: Size(width: 400, height: 400)) {}
        defer { player.stop() }
        player.play()
        let frame = try #require(frames(from: player, for: .milliseconds(300), until: { !$0.isEmpty }).last, "no frame")
        let bitmap = frame.picture.makeBitmap()
        #expect(bitmap.size == Size(width: 180, height: 320))
        // As the poster (ClipDecodeTests): turned clockwise, white at the top and blue at the bottom on the right.
        #expect(near(channels(bitmap, x: 119, y: 11), (255, 255, 255)), "\(channels(bitmap, x: 119, y: 11))")
        #expect(near(channels(bitmap, x: 119, y: 308), (0, 0, 255)), "\(channels(bitmap, x: 119, y: 308))")
    }

    @Test("an H.264 clip's moving ball changes between frames over a black ground, and positions advance")
    func frameContentChanges() throws {
        let player = try openPlayer(pattern: "ball", width: 320, height: 240, frames: 90, as: .mp4, name: "ball",
                                    fitting: Size(width: 320, height: 240))
        defer { player.stop() }
        player.play()
        let got = frames(from: player, for: .milliseconds(1000), until: { $0.count >= 5 })
        try #require(got.count >= 5, "only \(got.count) frames in 11 s of a 30 fps clip")
        let first = try #require(got.first), last = try #require(got.last)
        #expect(rows(first.picture.makeBitmap()) != rows(last.picture.makeBitmap()), "the ball did not move")
        #expect(near(channels(last.picture.makeBitmap(), x: 2, y: 2), (0, 0, 0)), "\(channels(last.picture.makeBitmap(), x: 2, y: 2))")
        let bright = rows(last.picture.makeBitmap()).filter { $0 >> 16 & 0xFF > 200 && $0 >> 8 & 0xFF > 200 && $0 & 0xFF > 200 }
        #expect(bright.count > 100, "no white ball: \(bright.count) white pixels")
        let positions = got.compactMap(\.position)
        #expect(positions.count == got.count)
        #expect((positions.last ?? .zero) > (positions.first ?? .zero), "\(positions)")
    }

    @Test("a limit on the decoder's threads reaches libav's H.264 decoder, which still plays the clip; no limit, none applied",
          .enabled(if: ClipDecoder.hasElement("avdec_h264"), "gstreamer1.0-libav's avdec_h264 is missing"))
    func decoderThreadLimit() throws {
        let path = try ClipFixture.write(pattern: "ball", width: 320, height: 240, frames: 60, as: .mp4, to: dir, name: "threads")
        let limited = try ClipPlayer(path: RawPath(path), fitting: Size(width: 320, height: 240), decoderThreads: 1) { }
        defer { limited.stop() }
        #expect(limited.limitedDecoderThreads == 1)
        limited.play()
        #expect(frames(from: limited, for: .milliseconds(1000), until: { $0.count >= 3 }).count >= 3)
        let unlimited = try ClipPlayer(path: RawPath(path), fitting: Size(width: 320, height: 240)) { }
        defer { unlimited.stop() }
        #expect(unlimited.limitedDecoderThreads == nil)
    }

    @Test("pause stops the frames, play goes on from where it was")
    func pauseAndResume() throws {
        let player = try openPlayer(pattern: "ball", width: 160, height: 120, frames: 150, as: .webm, name: "ball",
                                    fitting: Size(width: 160, height: 120))
        defer { player.stop() }
        player.play()
        let before = frames(from: player, for: .milliseconds(500), until: { !$0.isEmpty })
        try #require(!before.isEmpty, "no frame while playing")
        player.pause()
        #expect(!player.isPlaying)
        _ = frames(from: player, for: .milliseconds(300))  // a frame already decoded may still arrive
        let paused = frames(from: player, for: .milliseconds(500))
        #expect(paused.isEmpty, "\(paused.count) frames while paused")
        player.play()
        let after = frames(from: player, for: .milliseconds(500), until: { !$0.isEmpty })
        try #require(!after.isEmpty, "no frame after play")
        let pausedAt = before.last?.position ?? .zero
        #expect((after.first?.position ?? .zero) >= pausedAt, "resumed at \(String(describing: after.first?.position)), paused at \(pausedAt)")
    }

    static let canEncodeVorbis = ClipFixture.canRun
        && (try? ExternalTool.run("gst-inspect-1.0", ["--exists", "vorbisenc"])) != nil

    @Test("a clip with a sound track plays its pictures (the audio stream is left unlinked)",
          .enabled(if: canEncodeVorbis, "GStreamer's vorbisenc is missing (gstreamer1.0-plugins-base)"))
    func clipWithSoundPlays() throws {
        let path = try ClipFixture.write(pattern: "blue", width: 160, height: 120, frames: 60, tone: true, as: .webm, to: dir, name: "sound")
        let player = try ClipPlayer(path: RawPath(path), format: .matroskaClip, fitting: Size(width: 160, height: 120)) {}
        defer { player.stop() }
        player.play()
        let got = frames(from: player, for: .milliseconds(800), until: { !$0.isEmpty })
        let frame = try #require(got.last, "no frame in 10.8 s")
        #expect(near(channels(frame.picture.makeBitmap(), x: 80, y: 60), (0, 0, 255)), "\(channels(frame.picture.makeBitmap(), x: 80, y: 60))")
        #expect(player.failure == nil, "\(String(describing: player.failure))")
    }

    /// A blue WebM clip of `seconds` with a 440 Hz tone, or without sound.
    func clip(named name: String, seconds: Int, tone: Bool) throws -> String {
        try ClipFixture.write(pattern: "blue", width: 160, height: 120, frames: seconds * 30, tone: tone, as: .webm, to: dir, name: name)
    }

    /// The clip at `path` opened with its sound asked for on ALSA's `device`.
    func soundPlayer(_ path: String, device: String) throws -> ClipPlayer {
        try ClipPlayer(path: RawPath(path), format: .matroskaClip, fitting: Size(width: 160, height: 120),
                       sound: try #require(ClipSound(device: device))) {}
    }

    static let canPlaySound = canEncodeVorbis
        && (try? ExternalTool.run("gst-inspect-1.0", ["--exists", "alsasink"])) != nil
    static let needsSound = ConditionTrait.enabled(
        if: canPlaySound, "GStreamer's vorbisenc or alsasink is missing (gstreamer1.0-plugins-base, gstreamer1.0-alsa)")

    @Test("with sound asked for, a clip with a sound track opens with it on the ALSA device, and its pictures still play",
          needsSound)
    func soundPlaysOnTheDevice() throws {
        // ALSA's null device takes the sound without a card (a card's own pacing is the e2e
        // video stage's: snd-aloop in the guest).
        let path = try clip(named: "tone", seconds: 2, tone: true)
        let player = try soundPlayer(path, device: "null")
        defer { player.stop() }
        #expect(player.playsSound)
        #expect(player.soundProblem == nil, "\(String(describing: player.soundProblem))")
        player.play()
        let got = frames(from: player, for: .milliseconds(500), until: { !$0.isEmpty })
        let frame = try #require(got.last, "no frame in 10.5 s")
        #expect(near(channels(frame.picture.makeBitmap(), x: 80, y: 60), (0, 0, 255)))
        #expect(player.failure == nil, "\(String(describing: player.failure))")
    }

    @Test("a clip without sound plays as before when sound is asked for (no branch waits for audio)",
          needsSound)
    func silentClipWithSoundAsked() throws {
        let path = try clip(named: "silent", seconds: 1, tone: false)
        let started = ContinuousClock.now
        let player = try soundPlayer(path, device: "null")
        defer { player.stop() }
        // An audio branch left waiting would hold the opening until its bound.
        #expect(ContinuousClock.now - started < .milliseconds(Int64(ClipPlayer.openTimeoutMilliseconds)))
        #expect(!player.playsSound && player.soundProblem == nil)
        player.play()
        #expect(!frames(from: player, for: .milliseconds(300), until: { !$0.isEmpty }).isEmpty)
    }

    @Test("sound on a device that is not there: the clip plays muted and says why",
          needsSound)
    func missingDevicePlaysMuted() throws {
        let path = try clip(named: "nocard", seconds: 1, tone: true)
        let player = try soundPlayer(path, device: "hw:CARD=NoSuchCard,DEV=0")
        defer { player.stop() }
        #expect(!player.playsSound)
        let problem = try #require(player.soundProblem, "no reason given")
        #expect(problem.lowercased().contains("audio") || problem.lowercased().contains("device") || problem.contains("NoSuchCard"),
                "\(problem)")
        player.play()
        #expect(!frames(from: player, for: .milliseconds(300), until: { !$0.isEmpty }).isEmpty)
        #expect(player.failure == nil, "\(String(describing: player.failure))")
    }

    @Test("at its end the clip starts again from the beginning")
    func loops() throws {
        let player = try openPlayer(pattern: "ball", width: 160, height: 120, frames: 9, as: .webm, name: "short",
                                    fitting: Size(width: 160, height: 120))
        defer { player.stop() }
        player.play()
        func restarts(_ frames: [ClipPlayer.Frame]) -> Int {
            let positions = frames.compactMap(\.position)
            return zip(positions, positions.dropFirst()).filter { $1 < $0 }.count
        }
        let got = frames(from: player, for: .milliseconds(1500), until: { restarts($0) >= 1 })
        #expect(restarts(got) >= 1, "a 0.3 s clip never went back to its start in 11.5 s: \(got.compactMap(\.position))")
        #expect(player.failure == nil, "\(String(describing: player.failure))")
    }

    @Test("a truncated clip fails to open within the bound, with GStreamer's message")
    func truncatedClipFails() throws {
        let source = try ClipFixture.write(pattern: "smpte", width: 320, height: 240, frames: 30, as: .mp4, to: dir, name: "whole")
        let whole = try FileReader.read(path: source)
        let path = dir + "/truncated.mp4"
        try FileReader.write(Array(whole.prefix(whole.count / 2)), to: path)
        let started = ContinuousClock.now
        var failure: ImagingError?
        do {
            let player = try ClipPlayer(path: RawPath(path), format: .mp4Clip, fitting: Size(width: 64, height: 64)) {}
            player.stop()
        } catch {
            failure = error
        }
        let took = ContinuousClock.now - started
        #expect(failure?.kind == .corrupt, "\(String(describing: failure))")
        #expect((failure?.message.count ?? 0) > "cannot play the MP4/QuickTime clip: ".count, "\(String(describing: failure))")
        #expect(took < .milliseconds(Int64(ClipPlayer.openTimeoutMilliseconds) + 1000), "took \(took)")
    }

    @Test("stopping a player ends its worker and the demuxer's streaming thread")
    func teardownLeavesNoThread() throws {
        let path = try ClipFixture.write(pattern: "ball", width: 160, height: 120, frames: 60, as: .webm, to: dir, name: "ball")
        let player = try ClipPlayer(path: RawPath(path), format: .matroskaClip, fitting: Size(width: 160, height: 120)) {}
        // This player's own threads, by its number (other suites may play clips meanwhile).
        let worker = "pk-clip\(player.serial)", streaming = "demux\(player.serial):sink"
        player.play()
        _ = frames(from: player, for: .milliseconds(300))
        #expect(threads(named: worker) == 1)
        // GLib's thread pool may keep a finished streaming thread, under its last name, for
        // another task: one of that name ends, whatever else carries it.
        let streamingBefore = threads(named: streaming)
        #expect(streamingBefore >= 1)
        let started = ContinuousClock.now
        player.stop()
        #expect(ContinuousClock.now - started < .seconds(2), "stop took \(ContinuousClock.now - started)")
        #expect(threads(named: worker) == 0)
        #expect(threads(named: streaming) == streamingBefore - 1)
    }
}
