import Basics
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

    @Test func deadlineInThePastWakesTheLoopAtOnce() throws {
        let loop = try EventLoop(signals: [])
        loop.setDeadline(loop.now - 5)
        #expect(try loop.runOnce(timeout: 1) == 1)
        #expect(loop.pendingTimers == 0)
    }

    @Test func newDeadlineReplacesOldAndNilDisarms() throws {
        let loop = try EventLoop(signals: [])
        let start = loop.now
        loop.setDeadline(start + 10)          // replaced: must never wake the loop
        loop.setDeadline(start + 0.02)
        #expect(loop.pendingTimers == 1)
        #expect(try loop.runOnce(timeout: 1) == 1)
        #expect(loop.now >= start + 0.02 && loop.now < start + 5)
        #expect(loop.pendingTimers == 0)
        loop.setDeadline(loop.now + 0.01)
        loop.setDeadline(nil)
        #expect(try loop.runOnce(timeout: 0.05) == 0)
    }

    @Test func timersAtTheSameDeadlineFireInTheOrderAdded() throws {
        let loop = try EventLoop(signals: [])
        var fired: [Int] = []
        let at = loop.now + 0.01
        var ids: [EventLoop.TimerID] = []
        for i in 0..<40 { ids.append(loop.addTimer(at: at + Double(i % 4) * 0.001) { fired.append(i) }) }
        for i in stride(from: 1, to: 40, by: 5) { loop.cancelTimer(ids[i]) }
        let expected = (0..<40).filter { $0 % 5 != 1 }.sorted { ($0 % 4, $0) < ($1 % 4, $1) }
        while loop.pendingTimers > 0 { try loop.runOnce(timeout: 1) }
        #expect(fired == expected)
    }

    @Test func cancelledTimersDoNotPileUp() throws {
        // The session timer is cancelled and re-armed far ahead over and over.
        let loop = try EventLoop(signals: [])
        var fired = 0
        for _ in 0..<10_000 {
            let id = loop.addTimer(after: 300) { fired += 1 }
            loop.cancelTimer(id)
        }
        loop.addTimer(after: 0) { fired += 1 }
        #expect(loop.pendingTimers == 1)
        try loop.runOnce(timeout: 1)
        #expect(fired == 1 && loop.pendingTimers == 0)
        #expect(try loop.runOnce(timeout: 0.02) == 0, "no cancelled timer is left armed")
    }

    @Test func postFromManyThreadsRunsEverythingOnTheLoop() throws {
        let loop = try EventLoop(signals: [])
        let threads = 4, perThread = 250
        let ran = Locked(0)
        let mailbox = loop.mailbox
        let loopThread = pthread_self()
        let onLoopThread = Locked(true)
        var workers: [WorkerThreadForTest] = []
        for _ in 0..<threads {
            workers.append(WorkerThreadForTest {
                for _ in 0..<perThread {
                    mailbox.post {
                        ran.withLock { $0 += 1 }
                        if pthread_equal(pthread_self(), loopThread) == 0 { onLoopThread.withLock { $0 = false } }
                    }
                }
            })
        }
        for worker in workers { worker.join() }
        let deadline = loop.now + 5
        while ran.withLock({ $0 }) < threads * perThread && loop.now < deadline { try loop.runOnce(timeout: 0.5) }
        #expect(ran.withLock { $0 } == threads * perThread)
        #expect(onLoopThread.withLock { $0 })
    }

    @Test func theLoopThreadIsTheOneThatMadeTheLoop() throws {
        let loop = try EventLoop(signals: [])
        #expect(loop.thread.isCurrent && loop.mailbox.thread == loop.thread)
        let thread = loop.thread
        let seenElsewhere = Locked<Bool?>(nil)
        let worker = WorkerThreadForTest { seenElsewhere.withLock { $0 = thread.isCurrent } }
        worker.join()
        #expect(seenElsewhere.withLock { $0 } == false)
        // A LoopBound carries a loop value through the worker and back through the mailbox.
        var counter = 0
        let bound = LoopBound({ counter += 1 }, on: loop.thread)
        let mailbox = loop.mailbox
        let poster = WorkerThreadForTest { mailbox.post { bound.value() } }
        poster.join()
        try loop.runOnce(timeout: 1)
        #expect(counter == 1)
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

    @Test func timerDeadlineNeverDisarmsTheTimer() {
        let zero = TimerDeadline.timespec(0)
        #expect(zero.tv_sec != 0 || zero.tv_nsec != 0)
        let t = TimerDeadline.timespec(12.25)
        #expect(t.tv_sec == 12 && t.tv_nsec == 250_000_000)
    }
}

/// A plain pthread running `body` once (Platform has no thread type of its own).
struct WorkerThreadForTest {
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private var thread = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) {
        let arg = Unmanaged.passRetained(Body(body)).toOpaque()
        pthread_create(&thread, nil, { arg in
            Unmanaged<Body>.fromOpaque(arg!).takeRetainedValue().run()
            return nil
        }, arg)
    }

    func join() { pthread_join(thread, nil) }
}
