import Imaging

/// Whether the screen has finished loading: what the headless screen, snapshots, tests and
/// benchmarks wait for.
extension KioskApp {
    /// Whether the screen shows everything it is going to show: the scan is done, Live Photo
    /// pairs are confirmed, and every visible thumbnail (or the album's centre photo) has arrived or failed.
    public var isContentLoaded: Bool {
        guard isScanFinished else { return false }
        // A Live Photo pair split by its identifiers would still change the grid.
        guard !livePhotoConfirmation.isBusy else { return false }
        guard infoOverlay?.isSettled ?? true else { return false }
        if let album {
            return album.isCenterPageLoaded && (tiledPhoto?.content.isSettled ?? true) && !(albumService.captions?.isReading ?? false)
        }
        return grid.isVisibleContentLoaded
    }

    /// Whether the thumbnails still missing wait for the grid's fling to slow down (loads are
    /// deferred while it is fast): they arrive only once time moves on, not by waiting.
    public var isContentWaitingForMotion: Bool {
        album == nil && thumbnails.isDeferringLoads
    }

    /// Runs the loop until the content is loaded and drawn, or `timeout` seconds pass; true when
    /// settled. Used by the headless screen, snapshots and tests.
    @discardableResult
    public func runUntilSettled(timeout: Double) throws -> Bool {
        try host.run(until: { isContentLoaded }, timeout: timeout)
    }

    /// How many decodes the loader started, merged, skipped (for tests and benchmarks).
    public var loaderStatistics: LoaderStatistics { loader.statistics }
    /// Bytes of decoded bitmaps the memory cache holds now (benchmarks).
    public var imageCacheBytes: Int { cache.totalBytes }
}
