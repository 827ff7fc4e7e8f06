import Foundation
import Glibc
import Graphics
import Imaging
import Testing
import TestSupport

/// The settings file through the real program: `photokiosk run` lays it over config.toml and the
/// command line at start, a change on the API survives a restart, and a broken file costs the
/// settings (one clear log line), never the start.
@Suite(.serialized) struct RemoteSettingsRestartTests {
    static let token = "restart-token-0123456789abcdef"

    final class Kiosk {
        let process = Process()
        let port: Int
        let logFile: String

        init(root: String, arguments: [String]) throws {
            port = Self.freePort()
            logFile = root + "/kiosk-\(port).log"
            FileManager.default.createFile(atPath: logFile, contents: nil)
            process.executableURL = URL(fileURLWithPath: try #require(builtPhotokiosk(), "photokiosk is built beside the tests"))
            process.arguments = ["run", "--display", "headless", "--input", "none", "--size", "320x240",
                                 "--photos", root + "/photos", "--cache-dir", root + "/cache",
                                 "--remote-listen", "127.0.0.1:\(port)", "--remote-token", RemoteSettingsRestartTests.token] + arguments
            process.environment = ProcessInfo.processInfo.environment.merging(["XDG_STATE_HOME": root + "/state"]) { $1 }
            let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
            process.standardOutput = log
            process.standardError = log
            try process.run()
        }

        static func freePort() -> Int {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
            return Int(UInt16(bigEndian: address.sin_port))
        }

        func request(_ method: String, _ path: String, body: String = "") -> HTTPReply? {
            var headers = [("Authorization", "Bearer \(RemoteSettingsRestartTests.token)")]
            if !body.isEmpty { headers.append(("Content-Type", "application/json")) }
            return LoopbackClient.send(port: port, method: method, path: path, headers: headers, body: Array(body.utf8))
        }

        /// The settings once the server answers (within 30 s).
        func settings() throws -> String {
            for _ in 0..<300 {
                if let reply = request("GET", "/api/settings"), reply.status == 200 { return reply.text }
                usleep(100_000)
            }
            throw KioskFailure(log: log)
        }

        var log: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

        func stop() -> Int32 {
            process.terminate()   // SIGTERM
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    struct KioskFailure: Error { var log: String }

    @Test func settingsWinAtStartSurviveARestartAndABrokenFileIsIgnored() throws {
        let root = makeTemporaryDirectory("settings-restart")
        defer { removeTree(root) }
        try FileManager.default.createDirectory(atPath: root + "/photos", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/state/photokiosk", withIntermediateDirectories: true)
        let bitmap = Bitmap(width: 64, height: 48)
        Canvas(target: bitmap).clear(.blue)
        try FileReader.write(try JPEGEncoder.encode(bitmap, quality: 90), to: root + "/photos/a.jpg")
        let file = root + "/state/photokiosk/settings.toml"
        try "[slideshow]\ninterval = 17\n".write(toFile: file, atomically: true, encoding: .utf8)

        let first = try Kiosk(root: root, arguments: ["--interval", "30"])
        let started = try first.settings()
        #expect(started.contains(#""interval":17.0"#), "the settings file wins over --interval: \(started)")
        #expect(started.contains(#""from_settings_file":["slideshow.interval"]"#))
        let put = first.request("PUT", "/api/settings", body: #"{"kiosk": true, "overlay": {"clock": "top-left"}}"#)
        #expect(put?.status == 200, "\(put?.text ?? "no answer")")
        #expect(first.stop() == 0)

        let second = try Kiosk(root: root, arguments: ["--interval", "30"])
        let restarted = try second.settings()
        #expect(restarted.contains(#""interval":17.0"#) && restarted.contains(#""kiosk":true"#) && restarted.contains(#""clock":"top-left""#),
                "kept across the restart: \(restarted)")
        #expect(restarted.contains(#""from_settings_file":["slideshow.interval","overlay.clock","kiosk"]"#))
        #expect(second.stop() == 0)

        try "[slideshow\ninterval = 17\n".write(toFile: file, atomically: true, encoding: .utf8)
        let third = try Kiosk(root: root, arguments: ["--interval", "30"])
        let ignored = try third.settings()
        #expect(ignored.contains(#""interval":30.0"#) && ignored.contains(#""from_settings_file":[]"#), "\(ignored)")
        #expect(third.stop() == 0)
        #expect(third.log.contains("settings: \(file):1:") && third.log.contains("the file is ignored and config.toml's values are used"), "\(third.log)")
    }
}
