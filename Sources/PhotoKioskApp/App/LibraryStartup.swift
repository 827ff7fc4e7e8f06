import Graphics
import Imaging
import Logging
import Platform
import Widgets

/// The library scan, started as early as the app can: listing a large folder is most of what
/// the first frame of a large library waits for (about 3 ms of kernel time per 10,000 names),
/// and it can run while the display is being opened and the app built. `KioskApp` starts one
/// itself when it is not given one.
///
/// Its batches wait in the loop's mailbox until the loop runs; the app then feeds them to the
/// grid through the `ScanIntake`.
public final class LibraryStartup {
    let scanner: LibraryScanner
    let intake: ScanIntake
    let scan: BackgroundScan
    /// Where the scan waits after its first batch: opened once the first screen is complete
    /// (`KioskApp` opens it when the first batch's visible thumbnails are shown; with no app,
    /// as soon as the batch is drawn).
    let firstScreenShown = ScanGate()

    /// - Parameters:
    ///   - screenSize: the screen, when known, to size the first batch to one screenful of
    ///     thumbnails; nil guesses 1920x1080 (a bigger screen shows the rest a turn later).
    ///   - snapshot: the listing snapshot (kept in the thumbnail cache's directory), so that a
    ///     restart shows the first screen without listing the folders; nil lists them every time.
    ///   - listing: where folders are listed (a test puts its own in between, to act at each step).
    public init(folders: [String], config: KioskConfig, loop: EventLoop, logger: Logger, screenSize: Size? = nil,
                snapshot: ListingSnapshotStore? = nil, listing: any FolderListing = SystemFolderListing()) {
        // Date order reads each photo's EXIF date (its first kilobytes) while scanning; name order
        // needs only the listing.
        let captureDate: LibraryScanner.CaptureDateReader? = config.library.sort == .date ? Self.captureDate : nil
        var scanner = LibraryScanner(roots: folders.map { RawPath($0) }, captureDate: captureDate, logger: logger)
        scanner.listing = listing
        scanner.firstBatchSize = Self.screenful(of: screenSize ?? Size(width: 1920, height: 1080),
                                                thumbnailSize: config.library.thumbnailSize)
        self.scanner = scanner
        let intake = ScanIntake(later: { [mailbox = loop.mailbox] block in
            let confined = LoopBound(block, on: mailbox.thread)
            mailbox.post { confined.value() }
        })
        self.intake = intake
        intake.onFirstShown = { [firstScreenShown] in firstScreenShown.open() }
        scan = BackgroundScan(scanner: scanner,
                              snapshot: snapshot, firstScreenShown: firstScreenShown, watchesFolders: true,
                              deliver: { [mailbox = loop.mailbox] block in mailbox.post(block) },
                              onBatch: { intake.receive($0) }, onVerified: { intake.verified($0) },
                              onSnapshotUse: { intake.onSnapshotUse($0) },
                              onFinish: { intake.finish($0) })
    }

    /// Waits for the scanning thread to end, the listing snapshot it saves after reporting the
    /// scan's end included: a process that ends as soon as the scan is reported done (the
    /// benchmark's children) would otherwise cut the save short, and its next start list the folders.
    public func waitUntilScanned() {
        scan.waitUntilScanned()
    }

    /// When the photo was taken (EXIF DateTimeOriginal, in any format the decoder probes); nil for
    /// a photo without one or that cannot be read, which then sorts by its file time. A clip has
    /// no EXIF, and probing one would start GStreamer on the scan thread: it sorts by file time.
    static let captureDate: LibraryScanner.CaptureDateReader = { path in
        if PhotoFileType(fileName: path.lastComponent)?.isClip == true { return nil }
        return (try? ImageDecoder.probe(path: path))?.exif?.dateTimeOriginalSeconds
    }

    /// About how many thumbnails one screen shows, in either orientation: the scan's first
    /// batch, all that the first frame waits for.
    static func screenful(of size: Size, thumbnailSize: Int) -> Int {
        let edge = max(size.width, size.height)
        let layout = GridLayout(width: edge, itemCount: 0, preferredCellSize: Double(max(16, thumbnailSize)))
        let rows = Int((edge / layout.rowPitch).rounded(.up)) + 1
        return max(16, layout.columns * rows)
    }
}
