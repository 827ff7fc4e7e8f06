import Foundation
import Testing
@testable import PhotoKioskApp

/// scripts/install.sh into a temporary DESTDIR with a prebuilt program (no release build): the
/// files land where the systemd unit and the program expect them.
@Suite struct InstallTests {
    static let repository = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")

    /// The debug build of photokiosk beside the test bundle when there is one (then it is also
    /// run from where it was installed), else a small script standing in for it.
    func program(in scratch: String) throws -> (path: String, isReal: Bool) {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("photokiosk").path
        if FileManager.default.isExecutableFile(atPath: beside) { return (beside, true) }
        let stub = scratch + "/photokiosk-stub"
        try "#!/bin/sh\necho photokiosk\n".write(toFile: stub, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stub)
        return (stub, false)
    }

    func install(destdir: String, binary: String, prefix: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.repository + "/scripts/install.sh")
        process.arguments = ["--binary", binary]
        var environment = ProcessInfo.processInfo.environment
        environment["DESTDIR"] = destdir
        environment["PREFIX"] = prefix
        environment.removeValue(forKey: "UNITDIR")
        environment.removeValue(forKey: "UDEVDIR")
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// "Key=value" lines of a systemd unit (the last one wins, as in systemd for these keys).
    func unitSettings(_ path: String) throws -> [String: String] {
        var settings: [String: String] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            settings[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return settings
    }

    func scratchDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "photokiosk-install-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func filesLandWhereTheUnitAndTheProgramLook() throws {
        let scratch = try scratchDirectory()
        let destdir = scratch + "/root"
        let (binary, isReal) = try program(in: scratch)
        let result = try install(destdir: destdir, binary: binary)
        #expect(result.status == 0, "\(result.output)")

        let fm = FileManager.default
        let unit = try unitSettings(destdir + "/etc/systemd/system/photokiosk.service")
        // The program the unit starts is there and runnable.
        let exec = try #require(unit["ExecStart"])
        #expect(exec == "/usr/local/bin/photokiosk")
        #expect(fm.isExecutableFile(atPath: destdir + exec))
        if isReal {
            let help = Process()
            help.executableURL = URL(fileURLWithPath: destdir + exec)
            help.arguments = ["run", "--help"]
            help.standardOutput = Pipe()
            try help.run()
            help.waitUntilExit()
            #expect(help.terminationStatus == 0)
        }
        // The config where the program reads it by default, inside the unit's ConfigurationDirectory;
        // it is the defaults exactly: the example screen-off periods are installed commented out.
        #expect(KioskConfig.defaultPath == "/etc/" + (unit["ConfigurationDirectory"] ?? "?") + "/config.toml")
        let config = try KioskConfig.load(path: destdir + KioskConfig.defaultPath, mustExist: true)
        // Except the remote's token, random on a first install (the remote itself stays off).
        #expect(KioskConfig.Remote.tokenProblem(config.remote.token) == nil, "a usable token: \(config.remote.token)")
        #expect(config.remote.listen == nil)
        var withoutToken = config
        withoutToken.remote.token = ""
        #expect(withoutToken == KioskConfig())
        let secondInstall = try install(destdir: destdir, binary: binary)
        #expect(secondInstall.status == 0)
        #expect(try KioskConfig.load(path: destdir + KioskConfig.defaultPath, mustExist: true).remote.token == config.remote.token,
                "an update keeps the token")
        // The state and cache folders the program derives from the unit's environment are the ones
        // systemd creates for it.
        var environment: [String: String] = [:]
        for pair in (unit["Environment"] ?? "").split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { environment[String(parts[0])] = String(parts[1]) }
        }
        let paths = KioskPaths(environment: environment, config: config)
        #expect(paths.stateDirectory == "/var/lib/" + (unit["StateDirectory"] ?? "?"))
        #expect(paths.cacheDirectory == "/var/cache/" + (unit["CacheDirectory"] ?? "?"))
        // The sample photos where ResourceLocator finds them on an installed system.
        let samples = try fm.contentsOfDirectory(atPath: destdir + ResourceLocator.installedPhotos).filter { $0.hasSuffix(".jpg") }
        let shipped = try fm.contentsOfDirectory(atPath: Self.repository + "/assets/photos").filter { $0.hasSuffix(".jpg") }
        #expect(!samples.isEmpty)
        #expect(Set(samples) == Set(shipped))
        // The overlay's place table where ResourceLocator finds it, whole, with its attribution.
        let places = try PlaceTable(path: destdir + ResourceLocator.installedPlaceTable)
        #expect(places.placeCount > 100_000)
        #expect(fm.fileExists(atPath: destdir + "/usr/share/photokiosk/places/ATTRIBUTION.md"))
        #expect(fm.fileExists(atPath: destdir + "/etc/udev/rules.d/99-photokiosk.rules"))
        #expect(result.output.contains("Staged in"), "no user or service changes while staging")
    }

    @Test func anExistingConfigIsKeptAndPrefixMovesTheProgram() throws {
        let scratch = try scratchDirectory()
        let destdir = scratch + "/root"
        let (binary, _) = try program(in: scratch)
        #expect(try install(destdir: destdir, binary: binary, prefix: "/usr").status == 0)
        let configPath = destdir + KioskConfig.defaultPath
        let edited = "log_level = \"debug\"\n"
        try edited.write(toFile: configPath, atomically: true, encoding: .utf8)

        let again = try install(destdir: destdir, binary: binary, prefix: "/usr")
        #expect(again.status == 0)
        #expect(try String(contentsOfFile: configPath, encoding: .utf8) == edited)
        #expect(again.output.contains("Keeping the existing"))
        let unit = try unitSettings(destdir + "/etc/systemd/system/photokiosk.service")
        #expect(unit["ExecStart"] == "/usr/bin/photokiosk")
        #expect(FileManager.default.isExecutableFile(atPath: destdir + "/usr/bin/photokiosk"))
    }

    @Test func aMissingProgramStopsTheInstall() throws {
        let scratch = try scratchDirectory()
        let result = try install(destdir: scratch + "/root", binary: scratch + "/nothing-here")
        #expect(result.status == 66)
        #expect(!FileManager.default.fileExists(atPath: scratch + "/root/etc/systemd/system/photokiosk.service"))
    }
}
