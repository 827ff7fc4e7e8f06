import Foundation

/// A real mosquitto broker on the loopback for one test, on a free port, stopped when dropped.
/// Debian's `mosquitto` package (installed by scripts/install-deps.sh) provides it.
public final class MQTTBroker {
    public static let program = "/usr/sbin/mosquitto"
    public let port: Int
    public let folder: String
    private var process: Process?
    /// "user:password" lines when the broker should check passwords.
    private let users: [(String, String)]

    public init(users: [(String, String)] = []) throws {
        folder = makeTemporaryDirectory("mqtt")
        port = try Self.freePort()
        self.users = users
        try start()
    }

    deinit {
        stop()
        removeTree(folder)
    }

    public func start() throws {
        var config = "listener \(port) 127.0.0.1\npersistence false\n"
        // As root mosquitto drops to its own user, which cannot read our private temporary folder.
        if getuid() == 0 { config += "user root\n" }
        if users.isEmpty {
            config += "allow_anonymous true\n"
        } else {
            let passwords = folder + "/passwords"
            try users.map { "\($0.0):\($0.1)" }.joined(separator: "\n").write(toFile: passwords, atomically: true, encoding: .utf8)
            let hash = try runProgram("/usr/bin/mosquitto_passwd", ["-U", passwords])
            guard hash.status == 0 else { throw BrokerError("mosquitto_passwd -U failed: \(hash.errors)") }
            config += "allow_anonymous false\npassword_file \(passwords)\n"
        }
        try config.write(toFile: folder + "/mosquitto.conf", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.unmasked[0])
        process.arguments = Array(Self.unmasked.dropFirst()) + [Self.program, "-c", folder + "/mosquitto.conf"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        self.process = process
        // Ready when it accepts a connection.
        for _ in 0..<200 {
            if Self.accepts(port) { return }
            usleep(20_000)
        }
        throw BrokerError("mosquitto did not listen on port \(port) within 4 s")
    }

    /// Stops the broker: SIGTERM, then SIGKILL if it is still there after 5 s. Never waits
    /// without a bound: Process.waitUntilExit hung once here (an exit it never heard of), which
    /// would stall the whole test run.
    public func stop() {
        guard let process else { return }
        self.process = nil
        let pid = process.processIdentifier
        func gone(within seconds: Double) -> Bool {
            for _ in 0..<Int(seconds * 50) {
                // Exited (Foundation reaped it) or no longer a process at all.
                if !process.isRunning || kill(pid, 0) != 0 { return true }
                usleep(20_000)
            }
            return false
        }
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
        if !gone(within: 5) {
            kill(pid, SIGKILL)
            _ = gone(within: 5)
        }
    }

    /// The retained messages (topic, payload) under `patterns`, read with mosquitto_sub.
    public func retained(_ patterns: [String]) throws -> [String: [UInt8]] {
        // -F "%t %x": topic and the payload in hex, one line each, whatever the bytes.
        let arguments = ["-h", "127.0.0.1", "-p", String(port), "-W", "1", "-F", "%t %x"] + patterns.flatMap { ["-t", $0] }
        let run = try runProgram(Self.unmasked[0], Array(Self.unmasked.dropFirst()) + ["/usr/bin/mosquitto_sub"] + arguments, limit: 20)
        var messages: [String: [UInt8]] = [:]
        for line in run.output.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            let hex = parts.count > 1 ? Array(parts[1].utf8) : []
            var bytes: [UInt8] = []
            var i = 0
            while i + 1 < hex.count {
                bytes.append(UInt8(String(decoding: hex[i...i + 1], as: UTF8.self), radix: 16) ?? 0)
                i += 2
            }
            messages[String(parts[0])] = bytes
        }
        return messages
    }

    /// Runs the program after it with no signal blocked. A child inherits the spawning thread's
    /// signal mask, and test threads (dispatch workers, an event loop's signalfd) block nearly
    /// all: mosquitto would ignore SIGTERM and mosquitto_sub's -W timer (SIGALRM) never fire.
    static let unmasked = ["/usr/bin/python3", "-c",
                           "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])"]

    public func publish(_ topic: String, _ payload: String) throws {
        let run = try runProgram("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", topic, "-m", payload], limit: 20)
        guard run.status == 0 else { throw BrokerError("mosquitto_pub failed: \(run.errors)") }
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw BrokerError("no free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

public struct BrokerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
