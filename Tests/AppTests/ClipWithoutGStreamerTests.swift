import Foundation
import Graphics
import Imaging
import Testing
import TestSupport

/// Issue 35: on a frame without GStreamer a clip is a broken item with one log line saying what
/// to install, and everything else shows. The real photokiosk runs in a mount namespace where
/// libgstreamer is an empty file (dlopen then fails as it would without the package).
@Suite("A clip without GStreamer", .enabled(if: getuid() == 0 && access("/usr/bin/unshare", X_OK) == 0,
                                            "hiding libgstreamer needs a mount namespace (root and unshare)"),
       .enabled(if: ClipFixture.canRun, "GStreamer's tools or plugins are missing (scripts/install-deps.sh installs them)"))
struct ClipWithoutGStreamerTests {
    /// The installed library's real file (the soname is a link to it).
    static func libraryFile() -> String? {
        for dir in ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib/arm-linux-gnueabihf", "/usr/lib"] {
            let link = dir + "/libgstreamer-1.0.so.0"
            if access(link, R_OK) == 0 { return URL(fileURLWithPath: link).resolvingSymlinksInPath().path }
        }
        return nil
    }

    @Test("the clip is the broken tile with one line naming the package; the photo shows")
    func oneLineSaysWhatToInstall() throws {
        let program = try #require(builtPhotokiosk(), "photokiosk is built beside the tests")
        let library = try #require(Self.libraryFile())
        let root = makeTemporaryDirectory("no-gstreamer")
        defer { removeTree(root) }
        let folder = root + "/photos"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = try ClipFixture.write(pattern: "red", width: 160, height: 120, frames: 10, as: .webm, to: folder, name: "a-clip")
        let photo = Bitmap(width: 160, height: 120)
        Canvas(target: photo).clear(.blue)
        try FileReader.write(try JPEGEncoder.encode(photo, quality: 90), to: folder + "/b-photo.jpg")
        let command = "mount --bind /dev/null '\(library)' && exec '\(program)' snapshot --no-cache --photos '\(folder)'"
            + " --size 800x480 --out '\(root)/grid.png'"
        let run = try runProgram("/usr/bin/unshare", ["-m", "sh", "-c", command], limit: 120)
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.errors.split(separator: "\n").filter { $0.contains("a-clip") }
        #expect(lines.count == 1, "\(run.errors)")
        #expect(lines.first?.contains("broken photo: a-clip.webm: cannot decode the Matroska/WebM clip: GStreamer is not available") == true)
        #expect(lines.first?.contains("install the gstreamer1.0-plugins-good package") == true, "\(run.errors)")
        #expect(!run.errors.contains("b-photo"), "\(run.errors)")
    }
}
