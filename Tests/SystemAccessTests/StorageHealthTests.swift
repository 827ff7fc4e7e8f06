import Basics
import Glibc
import SystemAccess
import SystemPackage
import TestSupport
import Testing

/// Issue 33 item 2: a failing card is said once, counted after that, and cleared by the first
/// write that works; nothing stored is lost by a failed write; retries are spaced out.
@Suite("StorageHealth: failing writes said once, recovery said once")
struct StorageHealthTests {
    let scratch = ScratchDirectory()

    /// A health on clocks the test moves, with every change it reports.
    final class Probe: Sendable {
        let monotonic = Locked(100.0)
        let changes = Locked<[StorageHealth.Change]>([])
        let health: StorageHealth

        init() {
            let monotonic = monotonic
            health = StorageHealth(clocks: .init(monotonicSeconds: { monotonic.withLock { $0 } },
                                                 wallSeconds: { 1_795_861_203 }))   // 2026-11-28 10:20:03 UTC
            let changes = changes
            health.setObserver { change in changes.withLock { $0.append(change) } }
        }

        func advance(_ seconds: Double) { monotonic.withLock { $0 += seconds } }
        var reported: [StorageHealth.Change] { changes.withLock { $0 } }
    }

    @Test("the first failure is reported, the next ones counted; the first success reports recovery and clears")
    func onceEachWay() throws {
        let probe = Probe()
        let health = probe.health
        #expect(health.failing == nil)
        health.recordSuccess()
        #expect(probe.reported.isEmpty, "a success while healthy is no news")

        #expect(health.recordFailure(path: "/var/lib/photokiosk/resume", errno: .ioError))
        for _ in 0..<9 { health.recordFailure(path: "/var/cache/photokiosk/thumbs/x.thumb", errno: .ioError) }
        #expect(probe.reported.count == 1, "\(probe.reported)")
        let failing = try #require(health.failing)
        #expect(failing.failedWrites == 10)
        #expect(failing.folder == "/var/lib/photokiosk", "the first failure's folder, not the file")
        #expect(!failing.isReadOnly)
        #expect(failing.summary == "storage failing since 2026-11-28 10:20:03 UTC: Input/output error in /var/lib/photokiosk (10 failed writes)")
        let line = StorageHealth.logLine(probe.reported[0])
        #expect(line.hasPrefix("storage failing since 2026-11-28 10:20:03 UTC: Input/output error in /var/lib/photokiosk (1 failed write)"), "\(line)")

        probe.advance(42)
        health.recordSuccess()
        health.recordSuccess()
        #expect(health.failing == nil)
        #expect(probe.reported.count == 2)
        guard case .recovered(let over, let seconds) = probe.reported[1] else {
            Issue.record("no recovery reported: \(probe.reported)"); return
        }
        #expect(seconds == 42)
        #expect(over.failedWrites == 10)
        #expect(StorageHealth.logLine(probe.reported[1]).hasPrefix("storage writes work again after 42 s (10 failed writes"))

        // A second bad spell is reported again, once.
        health.recordFailure(path: "/var/lib/photokiosk/order.txt", errno: .noSpace)
        health.recordFailure(path: "/var/lib/photokiosk/order.txt", errno: .noSpace)
        #expect(probe.reported.count == 3)
        #expect(health.failing?.failedWrites == 2)
    }

    @Test("errors about one path (EACCES, ENOENT) are not the storage's: not counted, not reported")
    func otherErrorsAreNotStorage() {
        let probe = Probe()
        #expect(!probe.health.recordFailure(path: "/home/pi/state/resume", errno: .permissionDenied))
        #expect(!probe.health.recordFailure(path: "/nowhere/resume", errno: .noSuchFileOrDirectory))
        #expect(probe.health.failing == nil)
        #expect(probe.reported.isEmpty)
    }

    @Test("EROFS after EIO (ext4 gave up and remounted read-only) is said once more, as read-only")
    func readOnlyAfterErrors() throws {
        let probe = Probe()
        probe.health.recordFailure(path: "/var/lib/photokiosk/resume", errno: .ioError)
        probe.health.recordFailure(path: "/var/lib/photokiosk/resume", errno: .readOnlyFileSystem)
        probe.health.recordFailure(path: "/var/lib/photokiosk/resume", errno: .readOnlyFileSystem)
        #expect(probe.reported.count == 2)
        let failing = try #require(probe.health.failing)
        #expect(failing.isReadOnly)
        #expect(failing.summary.hasPrefix("storage read-only since 2026-11-28 10:20:03 UTC: Read-only file system"))
    }

    @Test("AtomicFile: a failure at any step keeps the old file byte for byte, leaves no temporary file, and is reported")
    func atomicWriteFailureKeepsOldContents() throws {
        let folder = scratch.newFolder("state")
        let path = folder + "/order.txt"
        let old = Array("a.jpg\nb.jpg\n".utf8)
        try AtomicFile.write(old, to: path, health: StorageHealth())
        for step in [AtomicFile.Step.createTemporary, .write, .syncFile, .rename] {
            let probe = Probe()
            #expect(throws: AtomicFile.WriteError.self) {
                try AtomicFile.write(Array("c.jpg\n".utf8), to: path, health: probe.health, failing: { $0 == step })
            }
            #expect(AtomicFile.read(path) == old, "\(step) lost the stored file")
            #expect(directoryNames(folder) == ["order.txt"], "\(step) left a temporary file")
            #expect(probe.health.failing?.failedWrites == 1, "\(step)")
            #expect(probe.reported.count == 1)
            try AtomicFile.write(Array("c.jpg\n".utf8), to: path, health: probe.health)
            #expect(probe.health.failing == nil, "\(step): a working write clears it")
            try AtomicFile.write(old, to: path, health: probe.health)
        }
    }

    @Test("the retry back-off: 5 s, doubling, at most 5 minutes; a success resets it")
    func backoff() {
        var retry = WriteRetryBackoff()
        #expect(retry.allowsAttempt(at: 0))
        var now = 1000.0
        var delays: [Double] = []
        for _ in 0..<9 {
            retry.failed(at: now)
            #expect(!retry.allowsAttempt(at: now + retry.delay - 0.001))
            #expect(retry.allowsAttempt(at: now + retry.delay))
            delays.append(retry.delay)
            now += retry.delay
        }
        #expect(delays == [5, 10, 20, 40, 80, 160, 300, 300, 300])
        retry.succeeded()
        #expect(retry.allowsAttempt(at: 0))
        retry.failed(at: now)
        #expect(retry.delay == 5)
    }

    @Test("doctor's write check: works, or says FAILING with the step, and leaves no file either way")
    func probe() throws {
        let folder = scratch.newFolder("probe")
        #expect(StorageProbe.check(folder: folder) == "writes work")
        #expect(directoryNames(folder).isEmpty)
        let failing = StorageProbe.check(folder: folder, failing: { $0 == .syncFile })
        #expect(failing.hasPrefix("FAILING (Input/output error at syncFile)"), "\(failing)")
        #expect(directoryNames(folder).isEmpty)
    }
}
