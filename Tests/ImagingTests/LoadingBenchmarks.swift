import Graphics
@testable import Imaging
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Opt-in measurements (PK_BENCH=1 swift test --filter LoadingBenchmarks): printed, never asserted.
@Suite("LoadingBenchmarks", .enabled(if: getenv("PK_BENCH") != nil))
struct LoadingBenchmarks {
    @Test func loaderOverhead() {
        let loop = TestLoop()
        let loader = ImageLoader(decoder: ClosureDecoder { _ in Bitmap(width: 1, height: 1) },
                                 deliver: loop.deliver)
        let count = 10_000
        var done = 0
        let elapsed = measureSeconds {
            for index in 0..<count { loader.request(key("b\(index)"), distance: Double(index % 97)) { _, _ in done += 1 } }
            _ = loop.waitForPosts(count)
            loop.drain()
        }
        print("loader: \(count) trivial decodes through the queue and delivery in \(elapsed * 1000) ms (\(elapsed / Double(count) * 1e6) µs each), workers \(ImageLoader.defaultWorkerCount)")
    }

    @Test func diskCache() {
        let scratch = ScratchDirectory()
        let cache = ThumbnailDiskCache(directory: scratch.path)
        let bitmap = Bitmap(width: 256, height: 256)
        let count = 100
        let write = measureSeconds {
            for index in 0..<count {
                cache.write(bitmap, for: ThumbnailCacheKey(path: RawPath("/p/\(index).jpg"), edge: 256,
                                                           modificationSeconds: 1, modificationNanoseconds: 0, fileSize: 1))
            }
        }
        let read = measureSeconds {
            for index in 0..<count {
                _ = cache.read(ThumbnailCacheKey(path: RawPath("/p/\(index).jpg"), edge: 256,
                                                 modificationSeconds: 1, modificationNanoseconds: 0, fileSize: 1))
            }
        }
        print("disk cache 256x256: write+fsync \(write / Double(count) * 1000) ms, read+checksum \(read / Double(count) * 1000) ms per entry")
    }

    @Test(arguments: [200, 2000, 20000]) func memoryCache(keyCount: Int) {
        // 1000 entries fit; more keys than that means an eviction on most inserts.
        let cache = ImageCache(budget: 64 << 20)
        let bitmap = Bitmap(width: 128, height: 128)
        let keys = (0..<keyCount).map { key("m\($0)") }
        let count = 20_000
        let elapsed = measureSeconds {
            for index in 0..<count {
                cache.insert(bitmap, for: keys[index % keyCount])
                _ = cache.bitmap(for: keys[(index * 7) % keyCount])
            }
        }
        print("memory cache: \(count) insert+get pairs over \(keyCount) keys in \(elapsed * 1000) ms (\(elapsed / Double(count) * 1e6) µs a pair)")
    }
}
