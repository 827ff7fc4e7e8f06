import Dispatch
import Graphics
import Testing
@testable import Imaging
#if canImport(Glibc)
import Glibc
#endif

@Suite("Decode memory gate")
struct DecodeMemoryGateTests {
    /// Runs `body` on a new thread; the returned semaphore is signalled when it has finished.
    func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread.start { body(); done.signal() }
        return done
    }

    /// Yields until `condition` holds; false if it never does (a safety net, not a clock).
    func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<2_000_000 {
            if condition() { return true }
            sched_yield()
        }
        return condition()
    }

    @Test func aLargeReservationWaitsUntilTheOneHoldingTheBudgetEnds() {
        let gate = DecodeMemoryGate(budget: 100, smallBytes: 10)
        let holdA = DispatchSemaphore(value: 0)
        let a = onThread { gate.withReservation(60) { holdA.wait() } }
        #expect(eventually { gate.runningCount == 1 })
        let b = onThread { gate.withReservation(60) {} }
        #expect(eventually { gate.waitingCount == 1 })
        #expect(gate.runningCount == 1)
        // A small one is not held up meanwhile.
        let small = onThread { gate.withReservation(9) {} }
        #expect(small.wait(timeout: .now() + 20) == .success)
        #expect(gate.waitingCount == 1)
        holdA.signal()
        #expect(a.wait(timeout: .now() + 20) == .success)
        #expect(b.wait(timeout: .now() + 20) == .success)
        #expect(gate.mostConcurrent == 1)
        #expect(gate.runningCount == 0 && gate.waitingCount == 0)
    }

    @Test func backgroundWorkWaitsWhileADecodeTheScreenNeedsWaits() {
        let gate = DecodeMemoryGate(budget: 100, smallBytes: 10)
        let order = OrderLog()
        let holdA = DispatchSemaphore(value: 0)
        let a = onThread { gate.withReservation(80) { holdA.wait() } }
        #expect(eventually { gate.runningCount == 1 })
        let b = onThread { gate.withReservation(50) { order.add("screen decode") } }
        #expect(eventually { gate.waitingCount == 1 })
        // 80 + 15 would fit the budget, but a decode the screen needs is waiting.
        let build = onThread { gate.withReservation(15, background: true) { order.add("pyramid build") } }
        #expect(eventually { gate.backgroundWaitingCount == 1 })
        #expect(order.entries.isEmpty)
        holdA.signal()
        for done in [a, b, build] { #expect(done.wait(timeout: .now() + 20) == .success) }
        #expect(order.entries == ["screen decode", "pyramid build"])
        #expect(gate.backgroundWaitingCount == 0 && gate.runningCount == 0)
        // With nobody waiting, background work that fits runs next to a holder.
        let hold = DispatchSemaphore(value: 0)
        let c = onThread { gate.withReservation(80) { hold.wait() } }
        #expect(eventually { gate.runningCount == 1 })
        #expect(gate.withReservation(15, background: true) { gate.runningCount } == 2)
        hold.signal()
        #expect(c.wait(timeout: .now() + 20) == .success)
    }

    final class OrderLog: @unchecked Sendable {
        private let lock = DispatchSemaphore(value: 1)
        private var values: [String] = []
        func add(_ entry: String) {
            lock.wait()
            values.append(entry)
            lock.signal()
        }
        var entries: [String] {
            lock.wait()
            defer { lock.signal() }
            return values
        }
    }

    @Test func reservationsThatFitTogetherRunTogetherAndAnOversizedOneRunsAlone() {
        let gate = DecodeMemoryGate(budget: 100, smallBytes: 10)
        let hold = DispatchSemaphore(value: 0)
        let a = onThread { gate.withReservation(40) { hold.wait() } }
        let b = onThread { gate.withReservation(40) { hold.wait() } }
        #expect(eventually { gate.runningCount == 2 })
        hold.signal()
        hold.signal()
        #expect(a.wait(timeout: .now() + 20) == .success && b.wait(timeout: .now() + 20) == .success)
        // Larger than the whole budget: admitted because nothing else runs.
        #expect(gate.withReservation(500) { 7 } == 7)
    }

    @Test func errorsReleaseTheReservation() {
        struct Failure: Error {}
        let gate = DecodeMemoryGate(budget: 100, smallBytes: 10)
        #expect(throws: Failure.self) { try gate.withReservation(80) { throw Failure() } }
        #expect(gate.runningCount == 0)
        #expect(gate.withReservation(80) { true })
    }

    static let progressive444: [UInt8] = {
        try! Fixtures.jpeg(Fixtures.scene(width: 1024, height: 768), .init(quality: 90, progressive: true, fullChroma: true))
    }()

    @Test func twoLargeProgressiveDecodesNeverRunAtTheSameTime() throws {
        // 128 x 96 blocks x 3 components x 128 bytes = 4.7 MB of coefficients each (unpacked).
        let gate = DecodeMemoryGate(budget: 6 << 20, smallBytes: 1 << 20)
        let jpeg = Self.progressive444
        let results = ResultBox()
        let threads = (0..<4).map { _ in
            onThread {
                let decoded = try? ImageDecoder.decode(bytes: jpeg, fitting: Size(width: 512, height: 384),
                                                       options: Self.unpacked, memoryGate: gate)
                results.add(decoded?.bitmap.size)
            }
        }
        for done in threads { #expect(done.wait(timeout: .now() + 60) == .success) }
        #expect(results.sizes == Array(repeating: Size(width: 512, height: 384), count: 4))
        #expect(gate.mostConcurrent == 1)
    }

    @Test func thumbnailsFromTheDCScanAndBaselineFilesDoNotUseTheGate() throws {
        let gate = DecodeMemoryGate(budget: 6 << 20, smallBytes: 1 << 20)
        // 1/8 scale: the DC-only path keeps 2 bytes per block.
        _ = try ImageDecoder.decode(bytes: Self.progressive444, fitting: Size(width: 128, height: 96), memoryGate: gate)
        let baseline = try Fixtures.jpeg(Fixtures.scene(width: 1024, height: 768), .init(quality: 90, fullChroma: true))
        _ = try ImageDecoder.decode(bytes: baseline, fitting: Size(width: 512, height: 384), memoryGate: gate)
        #expect(gate.mostConcurrent == 0)
        // The same progressive file at 1/2 packed (a mask per block and its nonzero values) is
        // small too; with libjpeg's whole-image buffers it reserves.
        let packed = try ImageDecoder.decode(bytes: Self.progressive444, fitting: Size(width: 512, height: 384), memoryGate: gate)
        #expect(gate.mostConcurrent == 0)
        #expect(packed.coefficientBytes < 1 << 20, "\(packed.coefficientBytes) bytes packed")
        _ = try ImageDecoder.decode(bytes: Self.progressive444, fitting: Size(width: 512, height: 384), options: Self.unpacked,
                                    memoryGate: gate)
        #expect(gate.mostConcurrent == 1)
    }

    static let unpacked = DecodeOptions(packsProgressiveCoefficients: false)

    final class ResultBox: @unchecked Sendable {
        private let lock = DispatchSemaphore(value: 1)
        private var values: [Size?] = []
        func add(_ size: Size?) {
            lock.wait()
            values.append(size)
            lock.signal()
        }
        var sizes: [Size?] {
            lock.wait()
            defer { lock.signal() }
            return values
        }
    }
}

/// A detached pthread for tests.
enum Thread {
    static func start(_ body: @escaping @Sendable () -> Void) {
        _ = WorkerThread(name: "test", body)
    }
}
