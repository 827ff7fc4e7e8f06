import TestSupport
import ChildProcesses
import Glibc
import SystemAccess
import SystemPackage
import Testing

@Suite("SystemAccess: child processes (ChildProcesses) and resource usage")
struct ChildProcessTests {
    /// The folders a test makes, removed after it.
    let scratch = ScratchDirectory()

    @Test("the exit code comes back")
    func exitStatus() throws {
        let result = try ChildProcess.run(["sh", "-c", "exit 7"])
        #expect(result.status == 7)
        #expect(!result.succeeded)
        #expect(try ChildProcess.run(["true"]).succeeded)
    }

    @Test("a child ended by a signal reports 128 + the signal")
    func signal() throws {
        let result = try ChildProcess.run(["sh", "-c", "kill -TERM $$"])
        #expect(result.status == 128 + SIGTERM)
    }

    @Test("standard output goes into the file, replacing what it held")
    func standardOutputIntoFile() throws {
        let folder = scratch.newFolder("childprocess")
        let path = FilePath(folder + "/out.txt")
        defer {
            try? FileSystemCalls.unlink(path)
            try? FileSystemCalls.removeDirectory(FilePath(folder))
        }
        let old = try FileDescriptor.openFile(path, .writeOnly, options: [.create], permissions: .ownerReadWrite)
        try old.writeAll(Array("an older and longer text\n".utf8))
        try old.closeChecked()
        let result = try ChildProcess.run(["sh", "-c", "echo hello; echo ignored >&2"], standardOutput: .file(path))
        #expect(result.succeeded)
        #expect(try FileSystemCalls.contents(of: path, limit: 1000) == Array("hello\n".utf8))
    }

    @Test("a busy child's CPU time and peak memory are its own")
    func cpuTimeOfABusyChild() throws {
        let result = try ChildProcess.run(["sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done"])
        #expect(result.succeeded)
        #expect(result.cpuSeconds > 0)
        #expect(result.maxResidentBytes > 0)
        #expect(result.wallSeconds > 0)
    }

    @Test("a program that does not exist is an error naming it")
    func missingProgram() {
        #expect {
            try ChildProcess.run(["no-such-program-photokiosk"])
        } throws: { error in
            guard let failure = error as? SystemError else { return false }
            return failure.errno == .noSuchFileOrDirectory && "\(failure)".contains("no-such-program-photokiosk")
        }
    }

    @Test("an output file that cannot be created is an error naming it, and nothing runs")
    func unwritableOutput() {
        let folder = scratch.newFolder("childprocess")
        let marker = FilePath(folder + "/ran")
        let path = FilePath(folder + "/no-such-folder/out.txt")
        defer {
            try? FileSystemCalls.unlink(marker)
            try? FileSystemCalls.removeDirectory(FilePath(folder))
        }
        #expect {
            try ChildProcess.run(["touch", marker.string], standardOutput: .file(path))
        } throws: { error in
            (error as? SystemError)?.path == path
        }
        #expect(!FileSystemCalls.exists(marker))
    }

    @Test("PATH is searched for a program; a path is taken as it is")
    func locate() {
        #expect(ChildProcess.locate("sh")?.lastComponent?.string == "sh")
        #expect(ChildProcess.locate("no-such-program-photokiosk") == nil)
        #expect(ChildProcess.locate("/bin/sh") == FilePath("/bin/sh"))
        #expect(ChildProcess.locate("/etc/hostname-not-a-program") == nil)
    }

    @Test("this process's CPU time, as getrusage reports it, grows with work")
    func thisProcessUsage() {
        let before = ResourceUsage.current()
        var sum = 0.0
        var i = 0
        while ResourceUsage.current().cpuSeconds == before.cpuSeconds && i < 500_000_000 {
            sum += Double(i).squareRoot()
            i += 1
        }
        #expect(ResourceUsage.current().cpuSeconds > before.cpuSeconds, "spun \(i) times (\(sum))")
        #expect(before.maxResidentBytes > 0)
    }

    @Test("dropping cached pages works on a file and fails clearly on a pipe")
    func dropCachedPages() throws {
        let file = try FileDescriptor.openFile("/proc/self/exe", .readOnly)
        defer { file.closeQuietly() }
        try file.dropCachedPages()
        let pipe = try FileDescriptor.pipe()
        defer {
            pipe.readEnd.closeQuietly()
            pipe.writeEnd.closeQuietly()
        }
        #expect(throws: Errno.illegalSeek) { try pipe.readEnd.dropCachedPages() }
    }
}
