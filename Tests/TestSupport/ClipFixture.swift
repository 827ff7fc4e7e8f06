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
    /// `directory/name.EXT`; returns the path.
    public static func write(pattern: String, width: Int, height: Int, frames: Int, fps: Int = 30,
                             as container: Container, to directory: String, name: String) throws -> String {
        let out = "\(directory)/\(name).\(container.fileExtension)"
        try ExternalTool.run("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=\(frames)", "pattern=\(pattern)", "!",
                                                "video/x-raw,format=I420,width=\(width),height=\(height),framerate=\(fps)/1", "!"]
                                               + container.encoder + ["!", "filesink", "location=\(out)"])
        return out
    }
}
