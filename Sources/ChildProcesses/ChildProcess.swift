import SystemAccess
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Another program run to its end, with what the kernel measured of it (wait4's rusage): the
/// benchmarks' way to time reference tools and to measure the app in a fresh process.
///
/// Its own target, not part of SystemAccess: the photokiosk program must contain no way to start
/// another program (SecurityTests scans everything it is built from), and only photokiosk-bench
/// links this.
public enum ChildProcess {
    /// Where a child's standard output or error goes.
    public enum Output: Equatable, Sendable {
        /// /dev/null.
        case discarded
        /// This process's own descriptor (the terminal, a pipe).
        case inherited
        /// A file, created or truncated (mode 0644).
        case file(FilePath)
    }

    /// How a child ended and what it cost.
    public struct Result: Equatable, Sendable {
        /// The exit code; 128 + n when signal n ended it (as a shell reports it).
        public var status: Int32
        /// Monotonic time from before the start to after the wait.
        public var wallSeconds: Double
        /// The child's user and system time and its peak resident memory (ru_maxrss). The peak
        /// can include pages of this process it shared before exec.
        public var usage: ResourceUsage

        public var cpuSeconds: Double { usage.cpuSeconds }
        public var maxResidentBytes: Int { usage.maxResidentBytes }
        public var succeeded: Bool { status == 0 }
    }

    /// Runs `arguments` (the first is searched on PATH unless it holds a slash) with this
    /// process's environment and waits for it. Fails when an output file cannot be opened
    /// (with its path) or the program cannot be started (with its name); a program that starts
    /// and fails is a `Result` with its status.
    public static func run(_ arguments: [String], standardOutput: Output = .discarded,
                           standardError: Output = .discarded) throws(SystemError) -> Result {
        precondition(!arguments.isEmpty, "a child process needs a program")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Opened here rather than by the child, so a failure names the file; close-on-exec, so
        // only the duplicate on 1 or 2 reaches the child.
        var opened: [FileDescriptor] = []
        defer { opened.forEach { $0.closeQuietly() } }
        for (output, target) in [(standardOutput, Int32(1)), (standardError, Int32(2))] {
            let path: FilePath
            var options: FileDescriptor.OpenOptions = []
            switch output {
            case .inherited: continue
            case .discarded: path = "/dev/null"
            case .file(let file): path = file; options = [.create, .truncate]
            }
            let descriptor = try FileDescriptor.openFile(path, .writeOnly, options: options,
                                                         permissions: [.ownerReadWrite, .groupRead, .otherRead])
            opened.append(descriptor)
            posix_spawn_file_actions_adddup2(&actions, descriptor.rawValue, target)
        }
        // The child starts with no signal blocked and every signal at its default action, whatever
        // this thread blocks or this process ignores (a loop reading signals through signalfd
        // blocks them), so it can be stopped like any program.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }

        let start = SystemClock.monotonicSeconds()
        var pid: pid_t = 0
        // posix_spawnp returns the error number (also when exec fails) instead of setting errno.
        let code = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
        guard code == 0 else { throw SystemError("posix_spawnp", path: FilePath(arguments[0]), errno: Errno(rawValue: code)) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            let failure = SystemError.lastErrno
            guard failure == .interrupted else { throw SystemError("wait4", errno: failure) }
        }
        let wall = SystemClock.monotonicSeconds() - start
        let signal = status & 0x7f
        return Result(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
                      wallSeconds: wall, usage: ResourceUsage(usage))
    }

    /// The executable `name` would run: itself when it holds a slash, else the first match on
    /// PATH (/usr/bin:/bin when PATH is unset); nil when there is none.
    public static func locate(_ name: String) -> FilePath? {
        func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }
        if name.contains("/") { return isExecutable(name) ? FilePath(name) : nil }
        let searchPath = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for folder in searchPath.split(separator: ":") where isExecutable("\(folder)/\(name)") {
            return FilePath("\(folder)/\(name)")
        }
        return nil
    }
}
