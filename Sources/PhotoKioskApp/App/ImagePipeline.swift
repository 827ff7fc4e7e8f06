import Imaging
import Logging
import Platform

/// The decoding side of the app, built from `[cache]`: the memory cache, the budget large
/// decodes share, the decoder (noting the full sizes its decodes read from the photos' headers,
/// behind the thumbnail disk cache, and clips' lengths from either) and the loader, whose results come back through the loop's
/// mailbox.
struct ImagePipeline {
    let cache: ImageCache
    let loader: ImageLoader
    /// Photos' full sizes, as the decodes found them (the album reads them on the loop).
    let originalSizes = OriginalSizes()
    /// Clips' lengths, as the loads found them (the grid's badges read them on the loop).
    let clipDurations = ClipDurations()

    /// - Parameter thumbnailCacheDirectory: where thumbnails are cached on disk; nil disables it.
    init(config: KioskConfig, thumbnailCacheDirectory: String?, mailbox: Mailbox, logger: Logger) {
        cache = ImageCache(budget: max(8, config.cache.memoryMB) << 20, onPressure: { [logger] pressure in
            logger.notice("image cache: \(pressure)")
        })
        // Large decodes (progressive photos, pyramid builds) share a budget sized to the board.
        DecodeMemoryGate.shared.budget = MemorySizing.decodeBudgetBytes(cacheMB: config.cache.memoryMB)
        let memTotal = MemorySizing.machineMemTotal.map { "\($0 >> 20) MB" } ?? "unknown"
        logger.info("memory: image cache \(config.cache.memoryMB) MB, large decodes \(DecodeMemoryGate.shared.budget >> 20) MB (MemTotal \(memTotal))")
        var decoder: any ImageSourceDecoder = LoadNotingDecoder(PhotoFileDecoder(), notes: originalSizes) { $0.originalSize }
        if let dir = thumbnailCacheDirectory, config.cache.diskMB > 0 {
            decoder = CachingThumbnailDecoder(decoder, diskCache: ThumbnailDiskCache(
                directory: RawPath(dir), maxBytes: config.cache.diskMB << 20))
        }
        decoder = LoadNotingDecoder(decoder, notes: clipDurations) { $0.clipDuration }
        loader = ImageLoader(decoder: decoder, cache: cache, deliver: { [mailbox] block in mailbox.post(block) })
    }
}
