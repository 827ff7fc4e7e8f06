import Imaging
import Logging

/// A folder that lists fine but EMPTY while many photos were shown under it is more often a share
/// that is not mounted (its bare mount point) or a sync tool's mistake than a family deleting them
/// all: a scan keeps those photos once, and only the next scan (a while later) that still finds
/// the folder empty lets them go. A folder with only a few photos empties at once, as a deletion
/// of a few files should; deletions inotify hears one by one are no scan and go at once too.
/// Folders the scan could not read at all are `FailedListingGuard`'s.
struct EmptyListingGuard {
    /// Photos shown under a folder for its empty listing to be doubted.
    static let doubtedCount = 10

    /// What one scan makes of it.
    struct Outcome: Equatable {
        /// The photos to keep shown, though the scan did not find them.
        var kept: [ScannedFile] = []
        /// Folders doubted now, with the photos kept under each: a second look confirms them.
        var doubted: [RawPath: Int] = [:]
        /// Folders doubted by the previous scan and empty again: their photos go now.
        var confirmed: [RawPath: Int] = [:]
    }

    /// Folders doubted by the previous scan.
    private(set) var pending: Set<RawPath> = []

    /// Looks at one scan's result: `found` what it listed, `summary` the folders it read and
    /// those it could not, `shown` the photos shown before it.
    mutating func check(found: [ScannedFile], summary: LibraryScanner.Summary, shown: [ScannedFile]) -> Outcome {
        let failed = summary.skipped.compactMap { entry -> RawPath? in
            if case .unreadable = entry.reason { return entry.path } else { return nil }
        }
        let listed = Set(summary.directoryStamps.map(\.path)).filter { folder in !failed.contains { folder.isInside($0) } }
        var withPhotos = Set<RawPath>()
        for file in found { Self.forEachFolder(above: file.path, in: listed) { withPhotos.insert($0) } }
        var shownUnder: [RawPath: Int] = [:]
        for file in shown where !failed.contains(where: { file.path.isInside($0) }) {
            Self.forEachFolder(above: file.path, in: listed) { shownUnder[$0, default: 0] += 1 }
        }
        let emptied = shownUnder.filter { folder, count in count >= Self.doubtedCount && !withPhotos.contains(folder) }
        // The topmost emptied folders: one below another is already counted in it.
        let topmost = emptied.filter { folder, _ in !emptied.keys.contains { $0 != folder && folder.isInside($0) } }
        var outcome = Outcome()
        for (folder, count) in topmost {
            if pending.contains(folder) { outcome.confirmed[folder] = count } else { outcome.doubted[folder] = count }
        }
        outcome.kept = shown.filter { file in outcome.doubted.keys.contains { file.path.isInside($0) } }
        pending = Set(outcome.doubted.keys)
        return outcome
    }

    /// One line for each folder doubted or confirmed; `nextLook` says when the second look comes.
    static func log(_ outcome: Outcome, nextLook: String, to logger: Logger) {
        for (folder, count) in outcome.doubted.sorted(by: { $0.key < $1.key }) {
            logger.notice("library: \(folder) lists empty but had \(count) photos (a share not mounted?); they stay shown until \(nextLook) confirms it")
        }
        for (folder, count) in outcome.confirmed.sorted(by: { $0.key < $1.key }) {
            logger.notice("library: \(folder) still lists empty; its \(count) photos go")
        }
    }

    /// Calls `body` with each folder of `listed` that holds `path`, from its parent upwards (a
    /// folder gone between them, as a whole album under an empty mount point, is passed over).
    private static func forEachFolder(above path: RawPath, in listed: Set<RawPath>, _ body: (RawPath) -> Void) {
        var folder = path.parent
        while true {
            if listed.contains(folder) { body(folder) }
            let up = folder.parent
            if up == folder { break }
            folder = up
        }
    }
}
