import Testing
@testable import PhotoKioskApp

@Suite struct MemorySizingTests {
    @Test func theImageCacheFollowsTheBoard() {
        #expect(MemorySizing.imageCacheMB(memTotal: 205 << 20) == 16)    // the smallboard guest
        #expect(MemorySizing.imageCacheMB(memTotal: 448 << 20) == 28)    // 512 MB with a 64 MB GPU split
        #expect(MemorySizing.imageCacheMB(memTotal: 512 << 20) == 32)
        #expect(MemorySizing.imageCacheMB(memTotal: 1 << 30) == 64)
        #expect(MemorySizing.imageCacheMB(memTotal: 24 << 30) == 64)
        #expect(MemorySizing.imageCacheMB(memTotal: nil) == 64)
    }

    @Test func largeDecodesGetAsMuchAsTheCacheAndAtLeast24MB() {
        #expect(MemorySizing.decodeBudgetBytes(cacheMB: 16) == 24 << 20)
        #expect(MemorySizing.decodeBudgetBytes(cacheMB: 32) == 32 << 20)
        #expect(MemorySizing.decodeBudgetBytes(cacheMB: 64) == 64 << 20)
    }

    @Test func aClipsSoftwareDecoderRunsOneThreadOnlyBelow768MB() {
        #expect(MemorySizing.clipDecoderThreads(memTotal: 460 << 20) == 1, "a 512 MB Pi Zero 2 W")
        #expect(MemorySizing.clipDecoderThreads(memTotal: 906 << 20) == 0, "a 1 GB Pi 3: one a core")
        #expect(MemorySizing.clipDecoderThreads(memTotal: 8 << 30) == 0)
        #expect(MemorySizing.clipDecoderThreads(memTotal: nil) == 0)
    }

    @Test func aConfiguredCacheWins() throws {
        var config = KioskConfig()
        #expect(config.cache.memoryMB == MemorySizing.imageCacheMB(memTotal: MemorySizing.machineMemTotal))
        config.cache.memoryMB = 100
        #expect(config.cache.memoryMB == 100)
    }
}
