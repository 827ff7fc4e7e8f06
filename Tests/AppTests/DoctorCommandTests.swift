import Foundation
import Graphics
import Imaging
import Testing
import TestSupport

/// Issue 30, item 7: `photokiosk doctor` checks the photo folders, the config file (each
/// mistake on its own line, exit 78) and the clock, and ends with what would be used; and
/// `snapshot --config` previews the frame's own settings.
@Suite(.serialized) struct DoctorCommandTests {
    func program() throws -> String { try #require(builtPhotokiosk(), "photokiosk is built beside the tests") }

    func photoFolder(_ count: Int, in root: String, name: String) throws -> String {
        let folder = root + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for i in 0..<count {
            let bitmap = Bitmap(width: 64, height: 48)
            Canvas(target: bitmap).clear(Color(rgb: 0x884422))
            try FileReader.write(try JPEGEncoder.encode(bitmap, quality: 90), to: folder + "/p\(i).jpg")
        }
        return folder
    }

    func config(_ text: String, in root: String) throws -> String {
        try text.write(toFile: root + "/config.toml", atomically: true, encoding: .utf8)
        return root + "/config.toml"
    }

    @Test func aBrokenConfigIsReportedLineByLineAndFails() throws {
        let root = makeTemporaryDirectory("doctor")
        defer { removeTree(root) }
        let file = try config("[slideshow]\nintervall = 5\ninterval = 0.5\n", in: root)
        let run = try runProgram(try program(), ["doctor", "--config", file])
        #expect(run.status == 78)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("Config: \(file): BROKEN, 3 mistakes; the kiosk will not start until it is fixed:"), "\(run.output)")
        #expect(lines.contains("  \(file):2: slideshow.intervall: unknown option; did you mean slideshow.interval?"))
        #expect(lines.contains { $0.hasPrefix("  \(file):3: slideshow.interval: 0.5 is out of range") })
        #expect(lines.contains { $0.hasPrefix("  \(file): slideshow.transition_duration: 1.0 s must be shorter") })
        #expect(lines.contains("Remote page: unknown (the config file has mistakes, see above)"))
        #expect(!lines.contains { $0.hasPrefix("Remote page:") && $0.contains("intervall") }, "mistakes are not inside the remote line")
        #expect(lines.last?.hasPrefix("Would use: ") == true, "\(lines.last ?? "")")
    }

    /// A scratch folder outside /tmp, which the service's sandbox replaces (PrivateTmp): in the
    /// checkout's .build.
    func scratchOutsideTmp() throws -> String {
        let checkout = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let folder = checkout + "/.build/doctor-test-\(getpid())"
        removeTree(folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func eachPhotoFolderIsChecked() throws {
        let root = try scratchOutsideTmp()
        defer { removeTree(root) }
        let tmp = makeTemporaryDirectory("doctor")
        defer { removeTree(tmp) }
        let two = try photoFolder(2, in: root, name: "two")
        let empty = try photoFolder(0, in: root, name: "empty")
        try "not a photo".write(toFile: empty + "/notes.txt", atomically: true, encoding: .utf8)
        let file = try config("""
            [library]
            folders = ["\(two)", "\(root)/missing", "/home/nobody-\(getpid())/Pictures", "\(empty)", "\(tmp)"]
            """, in: root)
        let run = try runProgram(try program(), ["doctor", "--config", file])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("Config: \(file): ok"))
        #expect(lines.contains("  \(two): ok, 2 photos"), "\(run.output)")
        #expect(lines.contains { $0.hasPrefix("  \(root)/missing: does not exist (yet)") })
        #expect(lines.contains { $0.hasPrefix("  /home/nobody-\(getpid())/Pictures: hidden from the photokiosk service by its sandbox (ProtectHome=yes)") })
        #expect(lines.contains { $0.hasPrefix("  \(tmp): hidden from the photokiosk service by its sandbox (PrivateTmp=yes") })
        #expect(lines.contains("  \(empty): no photos: none of its files is a JPEG, PNG, HEIC/HEIF, AVIF or WebP photo"))
        #expect(lines.contains { $0.hasPrefix("Time: zone ") && $0.contains("; clock ") })
        #expect(lines.last?.hasPrefix("Would use: 2 photos in \(two); display ") == true, "\(lines.last ?? "")")
        #expect(lines.last?.hasSuffix("; remote page off") == true)
    }

    @Test func snapshotPreviewsTheConfiguredFrame() throws {
        let root = makeTemporaryDirectory("snapshot-config")
        defer { removeTree(root) }
        let photos = try photoFolder(3, in: root, name: "photos")
        let file = try config("""
            [library]
            folders = ["\(photos)"]
            [display]
            mode = "320x240"
            rotation = 90
            """, in: root)
        let out = root + "/frame.png"
        let run = try runProgram(try program(), ["snapshot", "--config", file, "--no-cache", "--out", out])
        #expect(run.status == 0, "\(run.errors)")
        let png = try #require(FileManager.default.contents(atPath: out))
        // IHDR: width and height, big-endian, at bytes 16 and 20: the mode turned upright.
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 240 && height == 320, "\(width)x\(height)")
        let broken = try config("[slideshow]\ninterval = 0\n", in: root)
        let refused = try runProgram(try program(), ["snapshot", "--config", broken, "--out", out])
        #expect(refused.status == 78)
        #expect(refused.errors.contains("\(broken):2: slideshow.interval: 0.0 is out of range"), "\(refused.errors)")
    }
}
