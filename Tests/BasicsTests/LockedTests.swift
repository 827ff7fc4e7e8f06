import Glibc
import Testing
@testable import Basics

/// Runs `body(index)` on `count` plain pthreads at once and waits for all of them.
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    final class Start {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
    var threads: [pthread_t] = []
    for index in 0..<count {
        var thread = pthread_t()
        let start = Unmanaged.passRetained(Start { body(index) }).toOpaque()
        let result = pthread_create(&thread, nil, { argument in
            Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue().run()
            return nil
        }, start)
        precondition(result == 0, "pthread_create failed: \(result)")
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
}

private struct Refused: Error, Equatable { let code: Int }

@Suite struct LockedTests {
    @Test func contendedIncrementsReachTheExactTotal() {
        let counter = Locked(0)
        let threads = 8, increments = 20_000
        onThreads(threads) { _ in
            for _ in 0..<increments {
                counter.withLock { $0 += 1 }  // a read-modify-write: loses updates without the lock
            }
        }
        #expect(counter.withLock { $0 } == threads * increments)
    }

    @Test func contendedAppendsKeepEveryElement() {
        let list = Locked<[Int]>([])
        onThreads(4) { thread in
            for value in 0..<2_000 { list.withLock { $0.append(thread * 10_000 + value) } }
        }
        let all = list.withLock { $0 }
        #expect(all.count == 8_000)
        #expect(Set(all).count == 8_000)
    }

    @Test func withLockReturnsTheClosuresValue() {
        let names = Locked(["a", "b"])
        let count = names.withLock { names -> Int in
            names.append("c")
            return names.count
        }
        #expect(count == 3)
        #expect(names.withLock { $0.joined() } == "abc")
    }

    @Test func withLockRethrowsAndReleasesTheLock() {
        let value = Locked(1)
        #expect(throws: Refused(code: 7)) {
            try value.withLock { (state: inout Int) throws(Refused) in
                state = 2  // a change made before the throw stays: the closure owns the value
                throw Refused(code: 7)
            }
        }
        // Taking the lock again would deadlock had the throw left it held.
        #expect(value.withLock { $0 } == 2)
    }

    @Test func aNonThrowingBodyNeedsNoTry() {
        let mutex = ThreadMutex()
        let value: String = mutex.withLock { "plain" }
        #expect(value == "plain")
    }

    @Test func aConditionHandsValuesFromOneThreadToAnother() {
        // A single-slot handoff: the producer waits for an empty slot, the consumer for a full
        // one, so every value passes through in order only if wait/signal pair up correctly.
        final class Slot: @unchecked Sendable {
            let mutex = ThreadMutex()
            let changed = ThreadCondition()
            var value: Int?      // guarded by mutex
            var received: [Int] = []
        }
        let slot = Slot()
        let count = 500
        onThreads(2) { role in
            for index in 0..<count {
                slot.mutex.withLock {
                    if role == 0 {
                        while slot.value != nil { slot.changed.wait(releasing: slot.mutex) }
                        slot.value = index
                    } else {
                        while slot.value == nil { slot.changed.wait(releasing: slot.mutex) }
                        slot.received.append(slot.value!)
                        slot.value = nil
                    }
                    slot.changed.broadcast()
                }
            }
        }
        #expect(slot.received == Array(0..<count))
    }
}
