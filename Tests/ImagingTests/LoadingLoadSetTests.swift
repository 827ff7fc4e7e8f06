import Graphics
import Imaging
import Testing

@Suite("LoadSet")
struct LoadingLoadSetTests {
    @Test("keys that leave the wanted set are withdrawn before decoding; the rest follow distance")
    func followsWantedSet() {
        let decoder = RecordingDecoder()
        let (loader, loop) = oneWorkerLoader(decoder)
        var arrived: [ImageKey] = []
        let set = LoadSet(loader: loader) { key, _ in arrived.append(key) }
        loader.pause()
        set.update([key("a"): 1, key("b"): 2, key("c"): 3])
        set.update([key("b"): 5, key("c"): 0, key("d"): 1])   // scrolled: a gone, c nearest
        #expect(set.loadingCount == 3)
        #expect(loader.pendingCount == 3)
        loader.resume()
        #expect(loop.waitForPosts(3))
        loop.drain()
        #expect(decoder.decoded == [key("c"), key("d"), key("b")])
        #expect(arrived == [key("c"), key("d"), key("b")])
        #expect(set.loadingCount == 0)

        // Still wanted and already here: not requested again.
        set.update([key("b"): 0, key("c"): 0])
        #expect(loader.pendingCount == 0)
        set.reload(key("c"), distance: 0)
        #expect(loop.waitForPosts(1))
        loop.drain()
        #expect(decoder.decoded.last == key("c") && decoder.decoded.count == 4)
    }

    @Test("a key dropped while its decode runs is not reported")
    func droppedWhileRunning() {
        let held = key("held")
        let decoder = RecordingDecoder(holding: [held])
        let (loader, loop) = oneWorkerLoader(decoder)
        var arrived: [ImageKey] = []
        let set = LoadSet(loader: loader) { key, _ in arrived.append(key) }
        set.update([held: 0])
        #expect(decoder.waitUntilHeld())
        set.removeAll()
        decoder.release()
        loader.pause()
        loader.shutdown()
        loop.drain()
        #expect(arrived.isEmpty)
    }

    @Test("replacing the pinned set protects exactly the visible keys")
    func replacePins() {
        let cache = ImageCache(budget: 64 * 20)
        for name in ["a", "b", "c", "d"] { cache.insert(Bitmap(width: 16, height: 5), for: key(name)) }
        cache.replacePins(with: [key("a"), key("b")])
        cache.insert(Bitmap(width: 16, height: 10), for: key("e"))
        #expect(cache.keys == [key("a"), key("b"), key("e")])
        cache.replacePins(with: [key("e")])
        #expect(!cache.isPinned(key("a")) && cache.isPinned(key("e")))
        cache.insert(Bitmap(width: 16, height: 10), for: key("f"))
        #expect(cache.keys == [key("e"), key("f")])
    }
}
