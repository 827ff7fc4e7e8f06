import Imaging
import SystemAccess
#if canImport(Glibc)
import Glibc
#endif

/// What a start made of the listing snapshot (for the log and the tests).
public enum SnapshotUse: Equatable, Sendable {
    /// The first batches came from the snapshot.
    case used
    case missing
    case stale(String)
    case damaged(String)
}

extension LibraryScanner {
    /// A scan that starts from the listing snapshot when it still holds: its first screenful
    /// (each file stat'ed again, so a photo rewritten in place shows as it is now) and then the
    /// rest go to `onBatch` as a scan's batches would, without listing any folder, so the first
    /// frame of a 10,000-photo folder costs what a 100-photo one does. The folders are then
    /// walked as always, and `onVerified` gets everything the walk found, for the list to be
    /// put right (`PhotoList.diff`) if anything the snapshot's stamps cannot see changed. When
    /// the snapshot does not hold, the walk's batches go to `onBatch` as in `scan`.
    ///
    /// `onUse` hears where the first batch comes from as soon as that is known, before it goes
    /// to `onBatch` (the summary's `snapshotUse` may still turn `.damaged` if a later block is).
    ///
    /// After a complete walk, `snapshotToSave` is the new snapshot, unless the old one held and
    /// nothing changed (no write on an ordinary start: SD cards wear). The caller saves it once
    /// the scan's end is delivered, so that an fsync never delays watching the folders.
    @discardableResult
    public func scan(snapshot store: ListingSnapshotStore, batchSize: Int = 256,
                     isCancelled: @escaping () -> Bool = { false },
                     afterFirstBatch: @escaping () -> Void = {},
                     beforeListing: @escaping (RawPath, FileIdentity) -> Void = { _, _ in },
                     onUse: (SnapshotUse) -> Void = { _ in },
                     onBatch: ([ScannedFile]) -> Void,
                     onVerified: ([ScannedFile]) -> Void)
        -> (summary: Summary, use: SnapshotUse, snapshotToSave: ListingSnapshot?) {
        let scannedAt = store.now()
        let roots = resolvedRoots().resolved
        var use: SnapshotUse
        var previous: ListingSnapshot?
        // Whether photos from the snapshot went to `onBatch` (then the walk's go to `onVerified`).
        var handedOut = false
        switch store.open(roots: roots, hasCaptureDates: captureDate != nil) {
        case .usable(var reader):
            let first = max(1, firstBatchSize ?? batchSize)
            var files: [ScannedFile] = []
            do {
                while files.count < first, let block = try reader.nextFiles() { files += block }
                if let shown = Self.restated(files.prefix(first)) {
                    handedOut = true
                    onUse(.used)
                    onBatch(shown)
                    afterFirstBatch()
                    if files.count > first { onBatch(Array(files[first...])) }
                    files = shown + files.dropFirst(first)
                    while !isCancelled(), let block = try reader.nextFiles() {
                        onBatch(block)
                        files += block
                    }
                    use = .used
                } else {
                    use = .stale("a photo on the first screen is gone")
                }
            } catch {
                // Entries already handed out are put right by the walk below.
                use = .damaged(store.discard(error.description).reason)
            }
            var header = reader.header
            header.files = files
            previous = header
        case .missing:
            use = .missing
        case .stale(let reason):
            use = .stale(reason)
        case .damaged(let reason):
            use = .damaged(reason)
        }
        if !handedOut { onUse(use) }
        if use != .used { logger.info("library: listing snapshot not used (\(use)); scanning the folders") }
        var found: [ScannedFile] = []
        var summary = scan(batchSize: batchSize, isCancelled: isCancelled,
                           afterFirstBatch: handedOut ? {} : afterFirstBatch, beforeListing: beforeListing) { batch in
            found += batch
            if !handedOut { onBatch(batch) }
        }
        summary.snapshotUse = use
        guard !isCancelled() else { return (summary, use, nil) }
        if handedOut { onVerified(found) }
        let fresh = ListingSnapshot(scannedAt: scannedAt, roots: roots, hasCaptureDates: captureDate != nil,
                                    directories: summary.directoryStamps, files: found)
        let changed = use != .used || previous?.directories != fresh.directories || previous?.files != fresh.files
        return (summary, use, changed ? fresh : nil)
    }

    /// The files with their size and times as they are now; nil when one is gone or is another
    /// file (its folder's stamp would have changed, unless within the same timestamp tick).
    static func restated<Files: Collection<ScannedFile>>(_ files: Files) -> [ScannedFile]? {
        var result: [ScannedFile] = []
        result.reserveCapacity(files.count)
        for file in files {
            guard let info = try? FileSystemCalls.status(file.path.filePath), info.identity == file.identity else { return nil }
            result.append(ScannedFile(path: file.path, type: file.type, status: info, captureDate: file.captureDate))
        }
        return result
    }
}

extension ListingSnapshotStore.Verdict {
    var reason: String {
        switch self {
        case .usable: return "usable"
        case .missing: return "missing"
        case .stale(let reason), .damaged(let reason): return reason
        }
    }
}
