import Glibc

/// A finished child process: its exit status, wall time, CPU time and peak RSS (from wait4).
struct ChildResult {
    var status: Int32
    var wallSeconds: Double
    var cpuSeconds: Double
    var maxRSSBytes: Int
    var succeeded: Bool { status == 0 }
}

/// Runs `arguments` (PATH searched for the first) with stdout to `stdout` (default /dev/null),
/// stderr to /dev/null unless `showErrors`; waits and returns what the kernel measured.
func spawn(_ arguments: [String], stdout: String = "/dev/null", showErrors: Bool = false) -> ChildResult? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if !showErrors { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid: pid_t = 0
    let start = Clocks.wall()
    guard posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let wall = Clocks.wall() - start
    let exitCode: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return ChildResult(status: exitCode, wallSeconds: wall,
                       cpuSeconds: Clocks.seconds(usage.ru_utime) + Clocks.seconds(usage.ru_stime),
                       maxRSSBytes: Int(usage.ru_maxrss) * 1024)
}

/// Whether an executable named `name` is on PATH (or is an existing path).
func which(_ name: String) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
        let candidate = "\(dir)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

/// This program's own path, to run measurements in fresh child processes.
func selfExecutable() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
}

/// Reads a small text file (a child's results).
func readText(_ path: String) -> String? {
    guard let f = fopen(path, "r") else { return nil }
    defer { fclose(f) }
    var out = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        out += buffer[0..<n]
    }
    return String(decoding: out, as: UTF8.self)
}

/// Parses "key=value" lines.
func keyValues(_ text: String) -> [String: Double] {
    var out: [String: Double] = [:]
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: "=", maxSplits: 1)
        if parts.count == 2, let v = Double(parts[1]) { out[String(parts[0])] = v }
    }
    return out
}

func removeTree(_ path: String) {
    _ = spawn(["rm", "-rf", path])
}
