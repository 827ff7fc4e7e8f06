import Foundation
import Testing
import TestSupport

/// `photokiosk doctor` shows which settings come from the settings file the remote page writes
/// (they win over config.toml), or why that file is ignored.
@Suite(.serialized) struct DoctorSettingsTests {
    func doctor(state: String, config: String) throws -> (status: Int32, lines: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(builtPhotokiosk(), "photokiosk is built beside the tests"))
        process.arguments = ["doctor", "--config", config]
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_STATE_HOME": state]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    @Test func listsTheSettingsFromTheSettingsFileOrWhyItIsIgnored() throws {
        let root = makeTemporaryDirectory("doctor-settings")
        defer { removeTree(root) }
        let config = root + "/config.toml"
        try "[slideshow]\ninterval = 30\n".write(toFile: config, atomically: true, encoding: .utf8)
        let file = root + "/photokiosk/settings.toml"

        let none = try doctor(state: root, config: config)
        #expect(none.lines.contains("Settings file: \(file): none saved; every setting comes from config.toml"), "\(none.lines)")

        try FileManager.default.createDirectory(atPath: root + "/photokiosk", withIntermediateDirectories: true)
        try "kiosk = true\n[slideshow]\ninterval = 12\n".write(toFile: file, atomically: true, encoding: .utf8)
        let held = try doctor(state: root, config: config)
        let at = try #require(held.lines.firstIndex(of: "Settings file: \(file): 2 settings from the remote page, over config.toml:"), "\(held.lines)")
        #expect(Array(held.lines[(at + 1)...(at + 2)]) == ["  kiosk = true", "  slideshow.interval = 12"])

        try "[slideshow]\ninterval = 0\n".write(toFile: file, atomically: true, encoding: .utf8)
        let broken = try doctor(state: root, config: config)
        #expect(broken.lines.contains { $0.hasPrefix("Settings file: \(file): IGNORED (slideshow.interval: 0.0 is out of range") }, "\(broken.lines)")
        #expect(broken.status == 0, "a broken settings file does not stop the frame, so doctor does not fail on it")
    }
}
