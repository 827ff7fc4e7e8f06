import Foundation

/// Video clips made at test time by Debian's gst-launch-1.0 from videotestsrc (nothing is
/// downloaded or committed): VP8 in WebM, H.264 (x264enc) in MP4. scripts/install-deps.sh
/// installs the tools and plugins; where they are missing, `missingElements` names what the
/// tests that need them are skipped for.
public enum ClipFixture {
    public enum Container: Sendable {
        /// VP8 in WebM (plugins-good).
        case webm
        /// H.264 in MP4 (x264enc from plugins-ugly; decoded by avdec_h264 from gstreamer1.0-libav).
        case mp4

        var fileExtension: String { self == .webm ? "webm" : "mp4" }
        /// The sound track's encoder: what phones' clips carry in each container.
        var audioEncoder: String { self == .webm ? "vorbisenc" : "avenc_aac" }
        var encoder: [String] {
            switch self {
            case .webm: return ["vp8enc", "!", "webmmux"]
            // Baseline-friendly 4:2:0 input: a player without 4:4:4 H.264 support reads it too.
            case .mp4: return ["x264enc", "!", "mp4mux"]
            }
        }
    }

    /// The GStreamer elements making and decoding the fixtures, missing from this machine
    /// (empty when everything is there).
    public static let missingElements: [String] = {
        guard access("/usr/bin/gst-inspect-1.0", X_OK) == 0, access("/usr/bin/gst-launch-1.0", X_OK) == 0 else {
            return ["gst-launch-1.0", "gst-inspect-1.0"]
        }
        let needed = ["videotestsrc", "vp8enc", "webmmux", "x264enc", "mp4mux", "playbin", "videoconvert", "videoscale",
                      "videoflip", "vp8dec", "avdec_h264", "qtdemux", "matroskademux"]
        return needed.filter { (try? ExternalTool.run("gst-inspect-1.0", ["--exists", $0])) == nil }
    }()

    /// Why the clip tests cannot run here, for their skip notes.
    public static let canRun = missingElements.isEmpty

    /// Writes `frames` frames of videotestsrc's `pattern` (red, blue, smpte, ...) at `fps` as
    /// `directory/name.EXT`, with a 440 Hz tone as long as the pictures when `tone` (vorbisenc
    /// or avenc_aac: the tests that ask for one check for its encoder); returns the path.
    public static func write(pattern: String, width: Int, height: Int, frames: Int, fps: Int = 30, tone: Bool = false,
                             as container: Container, to directory: String, name: String) throws -> String {
        let out = "\(directory)/\(name).\(container.fileExtension)"
        let sound = tone ? ["audiotestsrc", "freq=440", "num-buffers=\(frames * 44_100 / fps / 1024 + 1)", "!", "audioconvert", "!",
                            container.audioEncoder, "!", "mux."] : []
        try ExternalTool.run("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=\(frames)", "pattern=\(pattern)", "!",
                                                "video/x-raw,format=I420,width=\(width),height=\(height),framerate=\(fps)/1", "!"]
                                               + container.encoder + ["name=mux", "!", "filesink", "location=\(out)"] + sound)
        return out
    }

    /// Marks an MP4 clip as recorded rotated a quarter turn, as a phone held upright writes it:
    /// the video track's header matrix (40 bytes after "tkhd", version 0) becomes a = 0, b = 1,
    /// c = -1, d = 0 (16.16 fixed point), which GStreamer reads as image-orientation rotate-90.
    public static func rotateQuarterTurn(_ path: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard let tkhd = (0..<(bytes.count - 4)).first(where: { bytes[$0..<($0 + 4)].elementsEqual("tkhd".utf8) }),
              bytes[tkhd + 4] == 0
        else { throw CocoaError(.fileReadCorruptFile) }
        let matrix: [Int32] = [0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x4000_0000]
        for (i, value) in matrix.enumerated() {
            for b in 0..<4 { bytes[tkhd + 44 + i * 4 + b] = UInt8(truncatingIfNeeded: UInt32(bitPattern: value) >> (24 - 8 * b)) }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
