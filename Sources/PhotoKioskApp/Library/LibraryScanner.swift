import Imaging
import Logging
import Platform

/// Lists the photos (JPEG, PNG, HEIC/HEIF, AVIF, WebP) under one or more folders, recursively, in batches so the first
/// photos can be shown long before a large library is fully scanned. See `TreeWalk` for the rules
/// about links, loops, hidden and unreadable entries.
///
/// `scan` runs on the calling thread; `BackgroundScan` runs it on its own thread and delivers
/// batches to the event loop.
public struct LibraryScanner: Sendable {
    /// Reads when a photo was taken (EXIF DateTimeOriginal, seconds since the epoch); called on the
    /// scanning thread for every photo, so it should read only the file's first kilobytes.
    public typealias CaptureDateReader = @Sendable (RawPath) -> Int64?

    /// The folders as configured (changed when a photo source is added or removed on the
    /// phone page: `LibraryWatcher.changeRoots`).
    public internal(set) var roots: [RawPath]
    public let captureDate: CaptureDateReader?
    public let logger: Logger
    /// The size of a scan's first batch when `scan` is not told (about a screenful: the app
    /// sets it from the screen and thumbnail sizes); nil: the batch size.
    public var firstBatchSize: Int?
    /// Where folders are listed and files looked at: the kernel's, unless a test puts its own
    /// in between (to act at each step of a scan).
    var listing: any FolderListing = SystemFolderListing()

    public struct Summary: Sendable {
        public var fileCount: Int
        public var directoryCount: Int
        public var skipped: [SkippedEntry]
        /// Every folder listed (or found unreadable), as it was just before it was read.
        public var directoryStamps: [DirectoryStamp] = []
        /// What a `scan(snapshot:)` made of the listing snapshot; nil for a scan without one.
        public var snapshotUse: SnapshotUse?
    }

    public init(roots: [RawPath], captureDate: CaptureDateReader? = nil,
                logger: Logger = Logger(label: "photokiosk.library")) {
        self.roots = roots
        self.captureDate = captureDate
        self.logger = logger
    }

    /// The roots with every link resolved (what "inside the folders" is checked against), and the
    /// configured roots that do not exist.
    func resolvedRoots() -> (resolved: [RawPath], missing: [RawPath]) {
        var resolved: [RawPath] = [], missing: [RawPath] = []
        for root in roots {
            if let real = root.resolved() { resolved.append(real) } else { missing.append(root) }
        }
        return (resolved, missing)
    }

    func makeWalk() -> (TreeWalk, [RawPath]) {
        let (resolved, missing) = resolvedRoots()
        let walk = TreeWalk(roots: resolved, captureDate: captureDate, logger: logger)
        walk.listing = listing
        for root in missing {
            logger.warning("library: photo folder \(root) does not exist")
        }
        return (walk, resolved)
    }

    /// Walks every root and calls `onBatch` with up to `batchSize` photos at a time, in the
    /// list's name order as far as the walk can tell (roots in name order, each depth first
    /// with files and subfolders interleaved by name; links last), so adding batches to a
    /// `PhotoList` in name order only appends. The first batch holds `firstBatchSize` photos
    /// (nil: the scanner's `firstBatchSize`, else `batchSize`), about one screenful: all that a
    /// first frame waits for. Paths are under the resolved roots. Stops early when
    /// `isCancelled` turns true. `afterFirstBatch` runs once the first batch is out, when the
    /// walk has more to do (`BackgroundScan` waits there for the first frame). `beforeListing`
    /// runs for each folder just before its entries are read (an `InotifyWatcher` watches it
    /// there, so a change made after the folder was read is heard).
    @discardableResult
    public func scan(batchSize: Int = 256, firstBatchSize: Int? = nil, isCancelled: @escaping () -> Bool = { false },
                     afterFirstBatch: @escaping () -> Void = {},
                     beforeListing: @escaping (RawPath, FileIdentity) -> Void = { _, _ in },
                     onBatch: ([ScannedFile]) -> Void) -> Summary {
        let (walk, resolved) = makeWalk()
        walk.shouldEnter = { directory, identity in
            beforeListing(directory, identity)
            return true
        }
        let starts = resolved.sorted(by: NaturalOrder.precedes)
        var limit = max(1, firstBatchSize ?? self.firstBatchSize ?? batchSize)
        var batch: [ScannedFile] = []
        batch.reserveCapacity(max(limit, batchSize))
        walk.isCancelled = isCancelled
        // Room for hidden files and non-photos among the first names.
        walk.orderedPrefix = limit + limit / 2 + 16
        var isFirst = true, isWalkDone = false
        withoutActuallyEscaping(onBatch) { onBatch in
            func handOut() {
                guard !batch.isEmpty else { return }
                onBatch(batch)
                batch.removeAll(keepingCapacity: true)
                limit = max(1, batchSize)
                if isFirst {
                    isFirst = false
                    if !isWalkDone { afterFirstBatch() }
                }
            }
            walk.emit = { file in
                batch.append(file)
                if batch.count >= limit { handOut() }
            }
            walk.willOrderListing = { handOut() }
            walk.run(starts)
            isWalkDone = true
            handOut()
            walk.emit = { _ in }
            walk.willOrderListing = {}
        }
        return Summary(fileCount: walk.fileCount, directoryCount: walk.directoryCount,
                       skipped: walk.skipped, directoryStamps: walk.directoryStamps)
    }

    /// Every photo at once (tests, small libraries, the polling watcher).
    public func scanAll() -> (files: [ScannedFile], summary: Summary) {
        var files: [ScannedFile] = []
        let summary = scan(batchSize: 4096) { files += $0 }
        return (files, summary)
    }
}
