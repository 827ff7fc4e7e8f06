import Glibc
import Graphics
import SystemPackage
import Testing
@testable import Platform

@Suite("Event loop")
struct EventLoopTests {
    @Test func timersFireInDeadlineOrder() throws {
        let loop = try EventLoop(signals: [])
        var fired: [String] = []
        let start = loop.now
        loop.addTimer(at: start + 0.03) { fired.append("late") }
        loop.addTimer(at: start + 0.01) { fired.append("early") }
        let cancelled = loop.addTimer(at: start + 0.02) { fired.append("cancelled") }
        loop.cancelTimer(cancelled)
        while fired.count < 2 { try loop.runOnce(timeout: 1) }
        #expect(fired == ["early", "late"])
        #expect(loop.now >= start + 0.03)
    }

    @Test func deadlineInThePastFiresAtOnce() throws {
        let loop = try EventLoop(signals: [])
        var fired = 0
        loop.deadlineHandler = { fired += 1 }
        loop.setDeadline(loop.now - 5)
        try loop.runOnce(timeout: 1)
        #expect(fired == 1)
    }

    @Test func newDeadlineReplacesOldAndNilDisarms() throws {
        let loop = try EventLoop(signals: [])
        var fired: [Double] = []
        loop.deadlineHandler = { fired.append(loop.now) }
        let start = loop.now
        loop.setDeadline(start + 10)          // replaced: must never fire
        loop.setDeadline(start + 0.02)
        while fired.isEmpty { try loop.runOnce(timeout: 1) }
        #expect(fired.count == 1 && fired[0] >= start + 0.02 && fired[0] < start + 5)
        loop.setDeadline(loop.now + 0.01)
        loop.setDeadline(nil)
        #expect(try loop.runOnce(timeout: 0.05) == 0)
        #expect(fired.count == 1)
    }

    @Test func postFromManyThreadsRunsEverythingOnTheLoop() throws {
        let loop = try EventLoop(signals: [])
        let threads = 4, perThread = 250
        let ran = Locked(0)
        let mailbox = loop.mailbox
        let loopThread = pthread_self()
        let onLoopThread = Locked(true)
        var workers: [pthread_t] = []
        final class Box: @unchecked Sendable { let body: () -> Void; init(_ b: @escaping () -> Void) { body = b } }
        for _ in 0..<threads {
            let box = Box {
                for _ in 0..<perThread {
                    mailbox.post {
                        ran.withLock { $0 += 1 }
                        if pthread_equal(pthread_self(), loopThread) == 0 { onLoopThread.withLock { $0 = false } }
                    }
                }
            }
            var thread = pthread_t()
            let arg = Unmanaged.passRetained(box).toOpaque()
            pthread_create(&thread, nil, { arg in
                let box = Unmanaged<Box>.fromOpaque(arg!).takeRetainedValue()
                box.body()
                return nil
            }, arg)
            workers.append(thread)
        }
        for t in workers { pthread_join(t, nil) }
        let deadline = loop.now + 5
        while ran.withLock({ $0 }) < threads * perThread && loop.now < deadline { try loop.runOnce(timeout: 0.5) }
        #expect(ran.withLock { $0 } == threads * perThread)
        #expect(onLoopThread.withLock { $0 })
    }

    @Test func idleLoopDoesNotWakeUp() throws {
        let loop = try EventLoop(signals: [])
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        try loop.watch(FileDescriptor(rawValue: fds[0])) {}
        let until = loop.now + 0.3
        var iterations = 0
        while loop.now < until {
            try loop.runOnce(timeout: until - loop.now)
            iterations += 1
        }
        #expect(loop.wakeups == 0)
        #expect(iterations <= 2)
    }

    @Test func watchedDescriptorCallsItsHandler() throws {
        let loop = try EventLoop(signals: [])
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var got: [UInt8] = []
        try loop.watch(FileDescriptor(rawValue: fds[0])) {
            var byte: UInt8 = 0
            if read(fds[0], &byte, 1) == 1 { got.append(byte) }
        }
        var b: UInt8 = 7
        _ = write(fds[1], &b, 1)
        try loop.runOnce(timeout: 1)
        #expect(got == [7])
        loop.unwatch(FileDescriptor(rawValue: fds[0]))
        _ = write(fds[1], &b, 1)
        #expect(try loop.runOnce(timeout: 0.05) == 0)
    }

    @Test func signalsArriveThroughTheSignalfdAndStopTheLoop() throws {
        let loop = try EventLoop(signals: [SIGUSR2])
        var seen: [Int32] = []
        loop.signalHandler = { seen.append($0); loop.stop() }
        _ = raise(SIGUSR2)   // blocked on this thread, so it waits for the signalfd
        try loop.run()
        #expect(seen == [SIGUSR2])
    }

    @Test func absoluteTimeNeverDisarmsTheTimer() {
        let zero = MonotonicClock.absoluteTime(0)
        #expect(zero.tv_sec != 0 || zero.tv_nsec != 0)
        let t = MonotonicClock.absoluteTime(12.25)
        #expect(t.tv_sec == 12 && t.tv_nsec == 250_000_000)
    }
}
