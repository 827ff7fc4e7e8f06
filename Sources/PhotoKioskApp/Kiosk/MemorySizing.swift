import Platform

/// What the board's memory (MemTotal) buys by default, unless configured: a Pi Zero 2 W
/// (512 MB) must stay far below the 160 MB where peer frame software meets the OOM killer.
public enum MemorySizing {
    /// The image cache (`cache.memory_mb`): a sixteenth of MemTotal, 16...64 MB (a 512 MB
    /// board 32 MB, 1 GB and more 64 MB); 64 when MemTotal is unknown.
    public static func imageCacheMB(memTotal: Int?) -> Int {
        guard let memTotal else { return 64 }
        return min(64, max(16, memTotal >> 24))
    }

    /// Decodes' working memory (`DecodeMemoryGate`): as much as the image cache, at least 24 MB,
    /// so `cache.memory_mb` sizes both. One large decode always runs; others (and pyramid builds)
    /// wait until they fit next to it.
    public static func decodeBudgetBytes(cacheMB: Int) -> Int {
        max(24, cacheMB) << 20
    }

    /// Frame threads a clip's software decoder (libav) may use; 0 leaves GStreamer's default, one
    /// a core. A board with less than 768 MB (a 512 MB Pi Zero 2 W or 3 A+) decodes on one: each
    /// thread holds frames of its own (two threads peak about 19 MB higher on a 1080p H.264
    /// clip), and such a Pi decodes H.264 in its V4L2 hardware decoder anyway.
    public static func clipDecoderThreads(memTotal: Int?) -> Int {
        guard let memTotal, memTotal < 768 << 20 else { return 0 }
        return 1
    }

    /// This machine's MemTotal, read once.
    public static let machineMemTotal: Int? = SystemMemory.totalBytes()
}
