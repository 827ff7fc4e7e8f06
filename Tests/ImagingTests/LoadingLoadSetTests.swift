import Graphics
import Imaging
import Testing

@Suite("LoadSet")
struct LoadingLoadSetTests {
    @Test("keys that leave the wanted set are withdrawn before decoding; the rest follow distance")
    func followsWantedSet() {
        let decoder = RecordingDecoder()
        let cache = ImageCache(budget: 1 << 20)
        let loop = TestLoop()
        let loader = ImageLoader(decoder: decoder, cache: cache, workerCount: 1, deliver: loop.deliver)
        var arrived: [ImageKey] = []
        let set = LoadSet(loader: loader, cache: cache) { key, _ in arrived.append(key) }
        loader.pause()
        set.update([key("a"): 1, key("b"): 2, key("c"): 3], pinning: [])
        set.update([key("b"): 5, key("c"): 0, key("d"): 1], pinning: [])   // scrolled: a gone, c nearest
        #expect(set.loadingCount == 3)
        #expect(loader.pendingCount == 3)
        loader.resume()
        #expect(loop.waitForPosts(3))
        loop.drain()
        #expect(decoder.decoded == [key("c"), key("d"), key("b")])
        #expect(arrived == [key("c"), key("d"), key("b")])
        #expect(set.loadingCount == 0)

        // Still wanted and already in the cache: not requested again.
        set.update([key("b"): 0, key("c"): 0], pinning: [])
        #expect(loader.pendingCount == 0 && set.loadingCount == 0)
        // Evicted (or its file changed) while still wanted: the next update loads it again.
        cache.remove(key("c"))
        set.update([key("b"): 0, key("c"): 0], pinning: [])
        #expect(set.isLoading(key("c")))
        #expect(loop.waitForPosts(1))
        loop.drain()
        #expect(decoder.decoded.last == key("c") && decoder.decoded.count == 4)
    }

    @Test("the arrival carries the loaded image itself")
    func arrivalCarriesTheImage() {
        let loop = TestLoop()
        let loader = ImageLoader(decoder: ClosureDecoder { _ in Bitmap(width: 7, height: 3) }, workerCount: 1, deliver: loop.deliver)
        var widths: [Int] = []
        let set = LoadSet(loader: loader, cache: ImageCache()) { _, result in
            if case .success(let image) = result { widths.append(image.bitmap.width) }
        }
        set.update([key("a"): 0], pinning: [])
        #expect(loop.waitForPosts(1))
        loop.drain()
        #expect(widths == [7])
    }

    @Test("a key dropped while its decode runs is not reported")
    func droppedWhileRunning() {
        let held = key("held")
        let decoder = RecordingDecoder(holding: [held])
        let (loader, loop) = oneWorkerLoader(decoder)
        var arrived: [ImageKey] = []
        let set = LoadSet(loader: loader, cache: ImageCache()) { key, _ in arrived.append(key) }
        set.update([held: 0], pinning: [])
        #expect(decoder.waitUntilHeld())
        set.removeAll()
        decoder.release()
        loader.pause()
        loader.shutdown()
        loop.drain()
        #expect(arrived.isEmpty)
    }

    @Test("pins follow the wanted keys asked to be pinned, and nest with other users of the cache")
    func pinsFollowTheWantedSet() {
        let (loader, _) = oneWorkerLoader(RecordingDecoder())
        loader.pause()
        let cache = ImageCache(budget: 64 * 20)
        for name in ["a", "b", "c", "d"] { cache.insert(Bitmap(width: 16, height: 5), for: key(name)) }
        let set = LoadSet(loader: loader, cache: cache) { _, _ in }
        cache.pin(key("b"))   // another view (the album's stand-in) wants it too
        set.update([key("a"): 0, key("b"): 0, key("c"): 1], pinning: [key("a"), key("b")])
        cache.insert(Bitmap(width: 16, height: 10), for: key("e"))
        #expect(cache.keys == [key("a"), key("b"), key("e")])
        set.update([key("e"): 0], pinning: [key("e")])
        #expect(!cache.isPinned(key("a")) && cache.isPinned(key("b")) && cache.isPinned(key("e")))
        set.removeAll()
        #expect(!cache.isPinned(key("e")) && cache.isPinned(key("b")))
    }

    @Test("a file that failed is reported once and not requested again until forgotten")
    func failures() {
        let bad = key("bad"), badScreen = key("bad", .screen(width: 64, height: 48))
        let decoder = RecordingDecoder(failing: [bad, badScreen])
        let (loader, loop) = oneWorkerLoader(decoder)
        var reports = 0
        let set = LoadSet(loader: loader, cache: ImageCache()) { _, result in
            if case .failure = result { reports += 1 }
        }
        set.update([bad: 0, badScreen: 1], pinning: [])
        #expect(loop.waitForPosts(2))
        loop.drain()
        #expect(reports == 1)
        #expect(set.failure(for: bad.path) != nil)
        set.update([bad: 0, badScreen: 1, key("good"): 2], pinning: [])
        #expect(set.loadingCount == 1 && set.isLoading(key("good")))
        set.forget(path: bad.path)
        #expect(set.failure(for: bad.path) == nil)
        set.update([bad: 0, key("good"): 2], pinning: [])
        #expect(set.isLoading(bad))
        #expect(loop.waitForPosts(2))
        loop.drain()
    }

    @Test("held bitmaps: none, those the cache refused, or all, and only while wanted")
    func holding() {
        let big = key("big", .full), small = key("small")
        for holding in [LoadSet.Holding.never, .whenCacheRefuses, .always] {
            let loop = TestLoop()
            // Fits the small bitmap (4x4) and refuses the big one (64x64).
            let cache = ImageCache(budget: 1024)
            let loader = ImageLoader(decoder: ClosureDecoder { request in
                request.key == big ? Bitmap(width: 64, height: 64) : Bitmap(width: 4, height: 4)
            }, cache: cache, workerCount: 1, deliver: loop.deliver)
            let set = LoadSet(loader: loader, cache: cache, holding: holding) { _, _ in }
            set.update([big: 0, small: 1], pinning: [])
            #expect(loop.waitForPosts(2))
            loop.drain()
            #expect((set.bitmap(for: big) != nil) == (holding != .never))
            #expect(set.bitmap(for: small) != nil)
            cache.remove(small)
            #expect((set.bitmap(for: small) != nil) == (holding == .always))
            set.update([small: 0], pinning: [])
            #expect(set.bitmap(for: big) == nil)
            loader.shutdown()
        }
    }

    @Test("while new loads wait, known ones still move and the rest are returned unrequested")
    func deferredRequests() {
        let (loader, _) = oneWorkerLoader(RecordingDecoder())
        loader.pause()
        let set = LoadSet(loader: loader, cache: ImageCache()) { _, _ in }
        set.update([key("a"): 3], pinning: [])
        let waiting = set.update([key("a"): 0, key("b"): 1], pinning: [], requestsNew: false)
        #expect(waiting == [key("b")])
        #expect(set.isLoading(key("a")) && !set.isLoading(key("b")))
        set.update(set.wanted, pinning: [])
        #expect(set.isLoading(key("b")))
    }
}
