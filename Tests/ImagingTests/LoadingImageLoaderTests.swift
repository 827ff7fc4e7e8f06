import Graphics
import Imaging
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("ImageLoader")
struct LoadingImageLoaderTests {
    @Test("a request withdrawn before a worker takes it is never decoded")
    func cancellationBeforeStart() throws {
        let hold = key("hold")
        let decoder = RecordingDecoder(holding: [hold])
        let (loader, loop) = oneWorkerLoader(decoder)
        var completed: [ImageKey] = []
        loader.request(hold, distance: 0) { key, _ in completed.append(key) }
        #expect(decoder.waitUntilHeld())
        loader.request(key("a"), distance: 1) { key, _ in completed.append(key) }
        let withdrawn = loader.request(key("b"), distance: 2) { key, _ in completed.append(key) }
        loader.request(key("c"), distance: 3) { key, _ in completed.append(key) }
        loader.cancel(withdrawn)
        #expect(loader.pendingCount == 2)
        decoder.release()
        #expect(loop.waitForPosts(3))
        loop.drain()
        #expect(decoder.decoded == [hold, key("a"), key("c")])
        #expect(completed == [hold, key("a"), key("c")])
        #expect(loader.statistics.cancelledBeforeStart == 1)
        #expect(loader.statistics.decodesStarted == 3)
    }

    @Test("workers take the nearest request first, using the latest distance")
    func priorityOrder() throws {
        let decoder = RecordingDecoder()
        let (loader, loop) = oneWorkerLoader(decoder)
        loader.pause()
        var tickets: [String: LoadTicket] = [:]
        for (name, distance) in [("e", 5.0), ("a", 1), ("d", 4), ("b", 2), ("c", 3)] {
            tickets[name] = loader.request(key(name), distance: distance) { _, _ in }
        }
        loader.update(tickets["e"]!, distance: 0)     // scrolled into view
        loader.update(tickets["a"]!, distance: 3.5)   // scrolled away a little
        #expect(loader.pendingCount == 5)
        #expect(decoder.decoded.isEmpty)
        loader.resume()
        #expect(loop.waitForPosts(5))
        #expect(decoder.decoded == ["e", "b", "c", "a", "d"].map { key($0) })
    }

    @Test("equal distances are served first come, first served")
    func tiesAreFIFO() {
        let decoder = RecordingDecoder()
        let (loader, loop) = oneWorkerLoader(decoder)
        loader.pause()
        let names = (0..<20).map { "p\($0)" }
        for name in names { loader.request(key(name), distance: 1) { _, _ in } }
        loader.resume()
        #expect(loop.waitForPosts(names.count))
        #expect(decoder.decoded == names.map { key($0) })
    }

    @Test("requests for the same key share one decode and every requester is told")
    func duplicatesMerge() throws {
        let hold = key("hold")
        let decoder = RecordingDecoder(holding: [hold])
        let (loader, loop) = oneWorkerLoader(decoder)
        loader.request(hold, distance: 0) { _, _ in }
        #expect(decoder.waitUntilHeld())
        var bitmaps: [String: Bitmap] = [:]
        let x = key("x")
        loader.request(x, distance: 5) { _, r in bitmaps["first"] = try? r.get().bitmap }
        loader.request(x, distance: 1) { _, r in bitmaps["second"] = try? r.get().bitmap }
        let third = loader.request(x, distance: 9) { _, r in bitmaps["third"] = try? r.get().bitmap }
        loader.cancel(third)
        #expect(loader.pendingCount == 1)
        decoder.release()
        #expect(loop.waitForPosts(2))
        loop.drain()
        #expect(decoder.decoded == [hold, x])
        #expect(Set(bitmaps.keys) == ["first", "second"])
        #expect(bitmaps["first"] === bitmaps["second"])
        #expect(loader.statistics.mergedRequests == 2)
    }

    @Test("a request joining a decode already running gets its result")
    func joinRunningDecode() throws {
        let x = key("x")
        let decoder = RecordingDecoder(holding: [x])
        let (loader, loop) = oneWorkerLoader(decoder)
        var told = 0
        loader.request(x, distance: 0) { _, _ in told += 1 }
        #expect(decoder.waitUntilHeld())
        loader.request(x, distance: 0) { _, _ in told += 1 }
        decoder.release()
        #expect(loop.waitForPosts(1))
        loop.drain()
        #expect(told == 2)
        #expect(decoder.decoded == [x])
    }

    @Test("completions run only when the loop runs the delivered block, on the loop's thread")
    func deliveryThroughClosure() throws {
        let decoder = RecordingDecoder()
        let loop = TestLoop()
        let loader = ImageLoader(decoder: decoder, workerCount: 2, deliver: loop.deliver)
        let loopThread = pthread_self()
        var calls: [(ImageKey, Bool)] = []
        for name in ["a", "b", "c"] {
            loader.request(key(name), distance: 0) { key, _ in
                calls.append((key, pthread_equal(pthread_self(), loopThread) != 0))
            }
        }
        #expect(loop.waitForPosts(3))
        #expect(calls.isEmpty)
        #expect(loop.drain() == 3)
        #expect(Set(calls.map(\.0)) == [key("a"), key("b"), key("c")])
        #expect(calls.allSatisfy { $0.1 })
    }

    @Test("a ticket cancelled after decoding but before delivery is not called")
    func cancelBeforeDelivery() {
        let decoder = RecordingDecoder()
        let (loader, loop) = oneWorkerLoader(decoder)
        var called = false
        let ticket = loader.request(key("a"), distance: 0) { _, _ in called = true }
        #expect(loop.waitForPosts(1))
        loader.cancel(ticket)
        loop.drain()
        #expect(!called)
    }

    @Test("decode errors reach the requester")
    func failuresAreDelivered() throws {
        let bad = key("bad")
        let decoder = RecordingDecoder(failing: [bad])
        let (loader, loop) = oneWorkerLoader(decoder)
        var outcome: Result<LoadedImage, any Error>?
        loader.request(bad, distance: 0) { _, result in outcome = result }
        #expect(loop.waitForPosts(1))
        loop.drain()
        let error = try #require(outcome.map { result -> (any Error)? in
            if case .failure(let error) = result { return error } else { return nil }
        } ?? nil)
        #expect(error is RecordingDecoder.Failure)
    }

    @Test("decoded bitmaps go into the cache and later requests are answered from it")
    func cacheIntegration() throws {
        let decoder = RecordingDecoder()
        let loop = TestLoop()
        let cache = ImageCache(budget: 1 << 20)
        let loader = ImageLoader(decoder: decoder, cache: cache, workerCount: 1, deliver: loop.deliver)
        var first: Bitmap?, second: Bitmap?
        loader.request(key("a"), distance: 0) { _, r in first = try? r.get().bitmap }
        #expect(loop.waitForPosts(1))
        loop.drain()
        #expect(cache.contains(key("a")))
        loader.request(key("a"), distance: 0) { _, r in second = try? r.get().bitmap }
        #expect(loop.waitForPosts(1))
        loop.drain()
        #expect(first != nil && first === second)
        #expect(decoder.decoded == [key("a")])
        #expect(loader.statistics.cacheHits == 1)
    }

    @Test("shutdown drops queued work and stops the workers")
    func shutdownDropsQueue() {
        let hold = key("hold")
        let decoder = RecordingDecoder(holding: [hold])
        let (loader, _) = oneWorkerLoader(decoder)
        loader.request(hold, distance: 0) { _, _ in }
        #expect(decoder.waitUntilHeld())
        loader.request(key("never"), distance: 0) { _, _ in }
        loader.pause()
        decoder.release()
        loader.shutdown()
        #expect(decoder.decoded == [hold])
    }

    @Test("a NaN distance queues last instead of corrupting the order")
    func nanDistance() {
        let decoder = RecordingDecoder()
        let (loader, loop) = oneWorkerLoader(decoder)
        loader.pause()
        loader.request(key("nan"), distance: .nan) { _, _ in }
        for (index, name) in ["a", "b", "c"].enumerated() {
            loader.request(key(name), distance: Double(index)) { _, _ in }
        }
        loader.resume()
        #expect(loop.waitForPosts(4))
        #expect(decoder.decoded == ["a", "b", "c", "nan"].map { key($0) })
    }

    @Test("the default pool leaves one core to the event loop")
    func defaultWorkers() {
        #expect(ImageLoader.defaultWorkerCount == max(1, WorkerThread.processorCount - 1))
    }
}
