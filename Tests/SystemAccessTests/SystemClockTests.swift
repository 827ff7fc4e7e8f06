import SystemAccess
import SystemPackage
import Testing

@Suite("SystemAccess: the kernel's clocks")
struct SystemClockTests {
    @Test("the monotonic clock never goes back")
    func monotonicNeverGoesBack() {
        var previous = SystemClock.monotonicSeconds()
        for _ in 0..<1000 {
            let now = SystemClock.monotonicSeconds()
            #expect(now >= previous)
            previous = now
        }
        #expect(previous > 0)
    }

    @Test("real time agrees with the modification time of a file written now")
    func realtimeMatchesFileTimes() throws {
        let before = SystemClock.realtimeNanoseconds()
        let path = FilePath("/tmp/systemclock-\(before)")
        try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusiveCreate], permissions: .ownerReadWrite).close()
        defer { try? FileSystemCalls.unlink(path) }
        let stamp = try FileSystemCalls.status(path)
        let modified = Int64(stamp.st_mtim.tv_sec)
        // File times come from the kernel's coarse clock (a tick behind at most).
        #expect(abs(modified - SystemClock.realtimeSeconds()) <= 1)
        #expect(abs(modified - before / 1_000_000_000) <= 1)
    }

    @Test("a busy thread's CPU time grows")
    func threadCPUTimeGrows() {
        let start = SystemClock.threadCPUSeconds()
        var sum = 0.0
        var i = 0
        while SystemClock.threadCPUSeconds() - start < 0.01 && i < 100_000_000 {
            sum += Double(i).squareRoot()
            i += 1
        }
        #expect(SystemClock.threadCPUSeconds() - start >= 0.01, "spun \(i) times (\(sum))")
    }
}
