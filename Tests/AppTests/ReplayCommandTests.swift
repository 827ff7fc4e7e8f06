import Foundation
import Testing
import TestSupport

/// `photokiosk replay` as a person runs it: the folder for the marks' PNGs is made (or the
/// replay is refused before it plays), and a fast fling finishes instead of spinning.
@Suite struct ReplayCommandTests {
    static let header = """
        # photokiosk touch recording v1
        device name="Scripted" size-mm=154x86 screen=1280x800 rotation=0 calibration=1,0,0,0,1,0

        """

    func write(_ recording: String, in folder: String) throws -> String {
        let file = folder + "/touches.rec"
        try (Self.header + recording).write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func theFolderForTheMarksIsMadeWithItsParents() throws {
        let program = try #require(builtPhotokiosk(), "photokiosk is built beside the tests")
        let folder = makeTemporaryDirectory("replay-marks")
        defer { removeTree(folder) }
        let recording = try write("0.5 mark first\n1.0 mark second\n", in: folder)
        let marks = folder + "/not/yet/there"
        let run = try runProgram(program, ["replay", recording, "--fast", "--screen", "touch-test", "--png-at-marks", marks])
        #expect(run.status == 0, "\(run.errors)")
        #expect(FileManager.default.fileExists(atPath: marks + "/first.png"))
        #expect(FileManager.default.fileExists(atPath: marks + "/second.png"))
        #expect(run.output.contains("mark second: \(marks)/second.png"))
    }

    @Test func aFolderThatCannotBeMadeIsRefusedBeforePlaying() throws {
        let program = try #require(builtPhotokiosk(), "photokiosk is built beside the tests")
        let folder = makeTemporaryDirectory("replay-marks")
        defer { removeTree(folder) }
        let recording = try write("0.5 mark first\n", in: folder)
        try "a file, not a folder".write(toFile: folder + "/file", atomically: true, encoding: .utf8)
        let run = try runProgram(program, ["replay", recording, "--fast", "--screen", "touch-test",
                                           "--png-at-marks", folder + "/file/marks", "--png", folder + "/final.png"])
        #expect(run.status != 0)
        #expect(run.errors.contains("--png-at-marks: cannot make the folder \(folder)/file/marks"), "\(run.errors)")
        #expect(!run.output.contains("mark first"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/final.png"), "refused before playing")
    }

    @Test func aMarkThatIsNotAFileNameIsRefused() throws {
        let program = try #require(builtPhotokiosk(), "photokiosk is built beside the tests")
        let folder = makeTemporaryDirectory("replay-marks")
        defer { removeTree(folder) }
        let recording = try write("0.5 mark ../outside\n", in: folder)
        let run = try runProgram(program, ["replay", recording, "--fast", "--screen", "touch-test", "--png-at-marks", folder + "/marks"])
        #expect(run.status != 0)
        #expect(run.errors.contains("mark \"../outside\" is not a file name"), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/outside.png"))
    }
}
