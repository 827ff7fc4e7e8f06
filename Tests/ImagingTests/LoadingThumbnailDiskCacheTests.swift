import Basics
import Graphics
@testable import Imaging
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("ThumbnailDiskCache")
struct LoadingThumbnailDiskCacheTests {
    func patterned(width: Int, height: Int, seed: UInt32 = 1) -> Bitmap {
        let bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                bitmap.setPixel(x: x, y: y, (UInt32(x * 7 + y * 131) &* 2_654_435_761 &+ seed) | 0xFF00_0000)
            }
        }
        return bitmap
    }

    func samePixels(_ a: Bitmap, _ b: Bitmap) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { return false }
        }
        return true
    }

    func key(_ name: String, edge: Int = 128, mtime: Int64 = 1_700_000_000, size: Int64 = 1000) -> ThumbnailCacheKey {
        ThumbnailCacheKey(path: RawPath("/photos/\(name).jpg"), edge: edge, modificationSeconds: mtime,
                          modificationNanoseconds: 0, fileSize: size)
    }

    /// The single cache entry's path (the tests do not depend on the naming scheme).
    func onlyEntry(in dir: RawPath) throws -> RawPath {
        let names = try #require(directoryEntryNames(dir)).filter { !$0.starts(with: Array(".".utf8)) }
        try #require(names.count == 1)
        return dir.appending(names[0])
    }

    @Test("a written thumbnail reads back pixel for pixel")
    func roundTrip() throws {
        let scratch = ScratchDirectory()
        let cache = ThumbnailDiskCache(directory: scratch.path)
        let bitmap = patterned(width: 37, height: 23)
        #expect(cache.write(bitmap, for: key("a")))
        let back = try #require(cache.read(key("a")))
        #expect(samePixels(bitmap, back))
        #expect(cache.read(key("b")) == nil)
        #expect(cache.read(key("a", edge: 256)) == nil)
        #expect(cache.entryCount == 1)
        #expect(directoryEntryNames(scratch.path)?.count == 1)   // no temp file left behind
        let file = try onlyEntry(in: scratch.path)
        #expect(cache.totalBytes == readFile(file)?.count)
        // A second instance sees the same entry (it is really on disk).
        let reopened = ThumbnailDiskCache(directory: scratch.path)
        #expect(reopened.read(key("a")).map { samePixels(bitmap, $0) } == true)
        #expect(reopened.totalBytes == cache.totalBytes)
    }

    @Test("the cache directory and its parents are created")
    func createsDirectory() {
        let scratch = ScratchDirectory()
        let dir = scratch.path.appending("a").appending("b").appending("photokiosk")
        let cache = ThumbnailDiskCache(directory: dir)
        #expect(cache.write(patterned(width: 2, height: 2), for: key("a")))
        #expect(cache.read(key("a")) != nil)
    }

    @Test("leftover temp files are not entries, and stale ones are removed on open")
    func tempFilesAreNotEntries() throws {
        let scratch = ScratchDirectory()
        let cache = ThumbnailDiskCache(directory: scratch.path)
        cache.write(patterned(width: 4, height: 4), for: key("a"))
        let before = cache.totalBytes
        let entryName = try onlyEntry(in: scratch.path).lastComponent
        let stale = scratch.path.appending(".tmp-999-1-" + String(decoding: entryName, as: UTF8.self))
        let fresh = scratch.path.appending(".tmp-999-2-" + String(decoding: entryName, as: UTF8.self))
        writeFile(stale, [UInt8](repeating: 7, count: 50_000))
        writeFile(fresh, [UInt8](repeating: 7, count: 50_000))
        setModificationTime(stale, seconds: Int(time(nil)) - 7200)
        #expect(cache.entryCount == 1)
        let reopened = ThumbnailDiskCache(directory: scratch.path)
        #expect(reopened.totalBytes == before)
        #expect(!fileExists(stale))
        #expect(fileExists(fresh))       // may be another process's write in progress
        #expect(reopened.read(key("a")) != nil)
        reopened.trim()
        #expect(reopened.entryCount == 1)
    }

    @Test("changing the photo's mtime or size invalidates its thumbnail")
    func invalidation() throws {
        let scratch = ScratchDirectory()
        let photo = scratch.file("photo.jpg", bytes: [UInt8](repeating: 1, count: 100))
        setModificationTime(photo, seconds: 1_600_000_000)
        let cache = ThumbnailDiskCache(directory: scratch.path.appending("cache"))
        let original = try #require(ThumbnailCacheKey(path: photo, edge: 128))
        #expect(original.modificationSeconds == 1_600_000_000 && original.fileSize == 100)
        cache.write(patterned(width: 8, height: 8), for: original)
        #expect(cache.read(try #require(ThumbnailCacheKey(path: photo, edge: 128))) != nil)

        setModificationTime(photo, seconds: 1_600_000_500)
        #expect(cache.read(try #require(ThumbnailCacheKey(path: photo, edge: 128))) == nil)

        setModificationTime(photo, seconds: 1_600_000_000)
        writeFile(photo, [UInt8](repeating: 1, count: 101))
        setModificationTime(photo, seconds: 1_600_000_000)
        #expect(cache.read(try #require(ThumbnailCacheKey(path: photo, edge: 128))) == nil)
        #expect(ThumbnailCacheKey(path: scratch.path.appending("missing.jpg"), edge: 128) == nil)
    }

    @Test("the total stays under the bound and least recently used entries go first")
    func boundedSize() throws {
        let scratch = ScratchDirectory()
        let oneEntry = 28 + 60 + 16 * 16 * 4   // header + key + pixels, roughly
        let cache = ThumbnailDiskCache(directory: scratch.path, maxBytes: oneEntry * 5)
        for index in 0..<20 {
            #expect(cache.write(patterned(width: 16, height: 16), for: key("p\(index)")))
            #expect(cache.totalBytes <= cache.maxBytes)
            #expect(cache.read(key("p\(index)")) != nil)
        }
        let onDisk = try #require(directoryEntryNames(scratch.path)).reduce(0) {
            $0 + (readFile(scratch.path.appending($1))?.count ?? 0)
        }
        #expect(onDisk <= cache.maxBytes && onDisk == cache.totalBytes)

        // Age every entry explicitly, use the oldest, then force a trim.
        let dir = scratch.path
        let survivors = (0..<20).filter { cache.read(key("p\($0)")) != nil }
        #expect(survivors.count >= 3)
        for name in try #require(directoryEntryNames(dir)) { setModificationTime(dir.appending(name), seconds: 1_000) }
        let used = survivors[0]
        #expect(cache.read(key("p\(used)")) != nil)          // bumps it to now
        for index in 100..<103 { cache.write(patterned(width: 16, height: 16), for: key("p\(index)")) }
        #expect(cache.read(key("p\(used)")) != nil)
        #expect(cache.totalBytes <= cache.maxBytes)
    }

    @Test("a hit marks its entry as used only when the last mark is a day old: no write per hit")
    func hitsDoNotWriteWithinTheGrain() throws {
        let scratch = ScratchDirectory()
        let cache = ThumbnailDiskCache(directory: scratch.path)
        #expect(cache.write(patterned(width: 8, height: 8), for: key("a")))
        let file = try onlyEntry(in: scratch.path)
        func mtime() -> Int {
            var info = stat()
            _ = file.withCString { stat($0, &info) }
            return info.st_mtim.tv_sec
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let hourAgo = now.tv_sec - 3600
        setModificationTime(file, seconds: hourAgo)
        #expect(cache.read(key("a")) != nil)
        #expect(mtime() == hourAgo)                          // used within the day: left alone
        let twoDaysAgo = now.tv_sec - 2 * 86_400
        setModificationTime(file, seconds: twoDaysAgo)
        #expect(cache.read(key("a")) != nil)
        #expect(mtime() >= now.tv_sec)                       // a day old: marked as used now
    }

    @Test("corrupt, truncated or foreign entries are misses and are removed")
    func corruptEntries() throws {
        for damage in ["flip", "truncate", "magic", "foreign"] {
            let scratch = ScratchDirectory()
            let cache = ThumbnailDiskCache(directory: scratch.path)
            cache.write(patterned(width: 10, height: 10), for: key("a"))
            let file = try onlyEntry(in: scratch.path)
            var bytes = try #require(readFile(file))
            var lookup = key("a")
            switch damage {
            case "flip": bytes[bytes.count - 5] ^= 0x40
            case "truncate": bytes.removeLast(17)
            case "magic": bytes[0] = UInt8(ascii: "X")
            default:
                // Another key's data under this name (a hash collision): the stored key differs.
                cache.write(patterned(width: 10, height: 10), for: key("b"))
                let other = try #require(directoryEntryNames(scratch.path)?.first { $0 != file.lastComponent })
                bytes = try #require(readFile(scratch.path.appending(other)))
                lookup = key("a")
            }
            writeFile(file, bytes)
            #expect(cache.read(lookup) == nil, "\(damage)")
            #expect(!fileExists(file), "\(damage)")
        }
    }

    @Test("a failing write is skipped and counted, never fatal")
    func writeFailure() throws {
        let scratch = ScratchDirectory()
        let blocker = scratch.file("not-a-directory", bytes: [1, 2, 3])
        let cache = ThumbnailDiskCache(directory: blocker.appending("cache"))
        #expect(!cache.write(patterned(width: 4, height: 4), for: key("a")))
        #expect(!cache.write(patterned(width: 4, height: 4), for: key("b")))
        #expect(cache.writeFailureCount == 2)
        #expect(cache.read(key("a")) == nil)
    }

    @Test("default directory follows XDG, then HOME")
    func defaultDirectory() {
        #expect(ThumbnailDiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/k"])
                == "/x/cache/photokiosk")
        #expect(ThumbnailDiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/k"])
                == "/home/k/.cache/photokiosk")
        #expect(ThumbnailDiskCache.defaultDirectory(environment: [:]) == nil)
    }

    @Test("the caching decoder decodes once per photo version")
    func cachingDecoder() throws {
        let scratch = ScratchDirectory()
        let photo = scratch.file("photo.jpg", bytes: [1, 2, 3])
        setModificationTime(photo, seconds: 1_600_000_000)
        let calls = Locked(0)
        let inner = ClosureDecoder { _ in
            calls.withLock { $0 += 1 }
            return Bitmap(width: 3, height: 3)
        }
        let decoder = CachingThumbnailDecoder(inner, diskCache: ThumbnailDiskCache(directory: scratch.path.appending("c")))
        let request = ImageRequest(key: ImageKey(path: photo, size: .thumbnail(edge: 64)))
        _ = try decoder.decode(request)
        _ = try decoder.decode(request)
        #expect(calls.withLock { $0 } == 1)
        setModificationTime(photo, seconds: 1_600_000_001)
        _ = try decoder.decode(request)
        #expect(calls.withLock { $0 } == 2)
        _ = try decoder.decode(ImageRequest(key: ImageKey(path: photo, size: .full)))
        _ = try decoder.decode(ImageRequest(key: ImageKey(path: photo, size: .full)))
        #expect(calls.withLock { $0 } == 4)
    }

    @Test("a clip's duration is kept beside its poster; a still has none")
    func clipDurationRoundTrip() throws {
        let scratch = ScratchDirectory()
        let cache = ThumbnailDiskCache(directory: scratch.path)
        let poster = patterned(width: 40, height: 22)
        #expect(cache.write(poster, for: key("clip"), clipDuration: .milliseconds(62_034)))
        #expect(cache.write(poster, for: key("still")))
        let reopened = ThumbnailDiskCache(directory: scratch.path)
        let clip = try #require(reopened.thumbnail(for: key("clip")))
        #expect(clip.clipDuration == .milliseconds(62_034))
        #expect(samePixels(clip.bitmap, poster))
        #expect(try #require(reopened.thumbnail(for: key("still"))).clipDuration == nil)
    }

    @Test("an entry of the format before durations is removed and made again, not misread")
    func versionOneEntriesAreRebuilt() throws {
        let scratch = ScratchDirectory()
        let cache = ThumbnailDiskCache(directory: scratch.path)
        let poster = patterned(width: 16, height: 9)
        #expect(cache.write(poster, for: key("clip"), clipDuration: .seconds(7)))
        // The same entry as version 1 wrote it: the 28-byte header without the duration field.
        let file = try onlyEntry(in: scratch.path)
        let current = try #require(readFile(file))
        var old = Array(current[0..<28]) + Array(current[36...])
        old[4] = 1
        try FileReader.write(old, to: file.description)
        #expect(cache.thumbnail(for: key("clip")) == nil)
        #expect(readFile(file) == nil)   // removed, so the next decode writes it anew
    }

    @Test("the caching decoder hands back a cached clip's duration")
    func cachingDecoderKeepsDurations() throws {
        struct ClipPoster: ImageSourceDecoder {
            let calls: Locked<Int>
            func decode(_ request: ImageRequest) throws -> LoadedImage {
                calls.withLock { $0 += 1 }
                return LoadedImage(bitmap: Bitmap(width: 4, height: 3), clipDuration: .milliseconds(1500))
            }
        }
        let scratch = ScratchDirectory()
        let clip = scratch.file("clip.mp4", bytes: [1, 2, 3])
        let calls = Locked(0)
        let decoder = CachingThumbnailDecoder(ClipPoster(calls: calls), diskCache: ThumbnailDiskCache(directory: scratch.path.appending("c")))
        let request = ImageRequest(key: ImageKey(path: clip, size: .thumbnail(edge: 64)))
        #expect(try decoder.decode(request).clipDuration == .milliseconds(1500))
        #expect(try decoder.decode(request).clipDuration == .milliseconds(1500))
        #expect(calls.withLock { $0 } == 1)   // the second came from the disk
    }
}
