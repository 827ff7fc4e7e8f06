import Glibc
import Imaging
import TestSupport
import Testing
@testable import PhotoKioskApp
import SystemAccess

/// Issue 11, item 6: no way out to a shell, no network port, nothing read outside the folders.
@Suite struct SecurityTests {
    /// The repository's Sources folder, found from this file's path.
    static let sources: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/Sources"
    }()

    /// Every Swift/C source file under `targets` (folders of Sources/), and "file: line" for
    /// each line `offendingLines` picks out of one.
    static func scan(_ targets: [String], for offendingLines: (String) -> [String]) -> (files: Int, offenders: [String]) {
        let files = targets.flatMap { sourceFiles(sources + "/" + $0) }
        var offenders: [String] = []
        for file in files {
            let text = String(decoding: AtomicFile.read(file, limit: 8 << 20) ?? [], as: UTF8.self)
            offenders += offendingLines(text).map { "\(file): \($0)" }
        }
        return (files.count, offenders)
    }

    static func sourceFiles(_ directory: String) -> [String] {
        var found: [String] = []
        for name in directoryNames(directory) {
            let path = directory + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                found += sourceFiles(path)
            } else if [".swift", ".c", ".h"].contains(where: name.hasSuffix) {
                found.append(path)
            }
        }
        return found
    }

    /// What would start another program: exec*, posix_spawn, popen, system(), fork, Process.
    static let forbidden: [String] = ["execv", "execl", "execle", "execvp", "execve", "fexecve", "posix_spawn", "popen(",
                                      "fork(", "vfork", "Process(", "/bin/sh", "/bin/bash", "NSTask"]

    static func offendingLines(in text: String) -> [String] {
        var found: [String] = []
        for line in text.split(separator: "\n") {
            let code = String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            if forbidden.contains(where: { code.contains($0) }) || callsSystem(code) { found.append(String(line)) }
        }
        return found
    }

    /// system(...) the C call, not `.system(` (an error case) nor `systemRead(`.
    static func callsSystem(_ code: String) -> Bool {
        !code.contains(/\bcase\s+system\(/) && code.contains(/(^|[^A-Za-z0-9_.])system\(/)
    }

    @Test func noSourceFileCanStartAnotherProgram() throws {
        // What the photokiosk program is built from (Sources/Benchmarks is a separate bench tool
        // that starts the program it measures; it is not linked into photokiosk).
        let targets = ["CShims", "Graphics", "SystemAccess", "Imaging", "Platform", "UI", "Widgets", "PhotoKioskApp", "photokiosk"]
        let (files, offenders) = Self.scan(targets, for: Self.offendingLines(in:))
        #expect(files > 50, "found the sources at \(Self.sources)")
        #expect(offenders.isEmpty, "\(offenders)")
    }

    @Test func theCheckFindsWhatItLooksFor() {
        #expect(!Self.offendingLines(in: "let pid = fork()").isEmpty)
        #expect(!Self.offendingLines(in: "_ = system(\"sh\")").isEmpty)
        #expect(!Self.offendingLines(in: "posix_spawnp(&pid, path, nil, nil, argv, envp)").isEmpty)
        #expect(Self.offendingLines(in: "throw .system(\"epoll\", errno: e)").isEmpty)
        #expect(Self.offendingLines(in: "// never fork() here").isEmpty)
    }

    /// Inodes of the sockets that serve a port: listening TCP, and every UDP/raw socket (IPv4 and
    /// IPv6), from /proc/net.
    static func networkSocketInodes() -> Set<String> {
        var inodes = Set<String>()
        for table in ["tcp", "tcp6", "udp", "udp6", "raw", "raw6", "udplite", "udplite6"] {
            guard let bytes = AtomicFile.read("/proc/net/" + table, limit: 16 << 20) else { continue }
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9 else { continue }
                if table.hasPrefix("tcp") && fields[3] != "0A" { continue }  // 0A: LISTEN
                inodes.insert(String(fields[9]))
                if getenv("ROBUST_SOCKET_DEBUG") != nil { print("net \(table): \(line)") }
            }
        }
        return inodes
    }

    /// Socket inodes this process holds open.
    static func openSocketInodes() -> [String] {
        directoryNames("/proc/self/fd").compactMap { fd in
            var buffer = [CChar](repeating: 0, count: 256)
            let n = readlink("/proc/self/fd/" + fd, &buffer, buffer.count - 1)
            guard n > 0 else { return nil }
            let target = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard target.hasPrefix("socket:[") else { return nil }
            return String(target.dropFirst(8).dropLast())
        }
    }

    @Test func theRunningAppOpensNoNetworkSocket() throws {
        let folder = makeTemporaryDirectory("net")
        defer { removeTree(folder) }
        for i in 0..<4 { try FileReader.write(try solidPhoto(HostileFiles.goodColors[i]), to: folder + "/p\(i).jpg") }
        // Other suites run in this process at the same time: look at what appears while the app
        // starts and runs (ports already open before it are not the app's).
        let before = Set(Self.openSocketInodes()).intersection(Self.networkSocketInodes())
        let (app, _) = try makeHeadlessApp(folders: [folder], width: 640, height: 480, logger: LogCapture().logger)
        #expect(try app.runUntilSettled(timeout: 30))
        let opened = Set(Self.openSocketInodes()).intersection(Self.networkSocketInodes()).subtracting(before)
        #expect(opened.isEmpty, "ports opened while the app ran: \(opened) (before: \(before))")
        // The check can fail: a listening TCP socket of our own is seen.
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(probe) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        _ = listen(probe, 1)
        #expect(Self.openSocketInodes().contains { Self.networkSocketInodes().contains($0) })
    }
}
