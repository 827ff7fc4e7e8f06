import ChildProcesses
import SystemAccess
import SystemPackage

/// Runs `arguments` (PATH searched for the first) with stdout to /dev/null, stderr too unless
/// `showErrors`; waits and returns what the kernel measured. A program that cannot be started is
/// reported on stderr and gives nil (the figure is then missing).
func spawn(_ arguments: [String], showErrors: Bool = false) -> ChildProcess.Result? {
    do {
        return try ChildProcess.run(arguments, standardError: showErrors ? .inherited : .discarded)
    } catch {
        sayError("photokiosk-bench: \(error)")
        return nil
    }
}

/// Whether an executable named `name` is on PATH (or is an existing path).
func which(_ name: String) -> String? {
    ChildProcess.locate(name).map { $0.string }
}

/// This program's own path, to run measurements in fresh child processes.
func selfExecutable() -> String {
    FileSystemCalls.resolved("/proc/self/exe")?.string ?? CommandLine.arguments[0]
}

func removeTree(_ path: String) {
    _ = spawn(["rm", "-rf", path])
}
