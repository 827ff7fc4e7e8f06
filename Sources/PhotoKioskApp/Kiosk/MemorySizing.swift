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

    /// This machine's MemTotal, read once.
    public static let machineMemTotal: Int? = SystemMemory.totalBytes()
}
