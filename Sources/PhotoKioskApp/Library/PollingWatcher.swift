import Basics
import Graphics
import Imaging

/// Finds changes by rescanning and comparing with the previous scan: for network mounts (NFS,
/// SMB) where inotify hears nothing of remote writes, or when inotify is unavailable.
///
/// `poll()` walks the whole library on the calling thread; run it from a background thread on a
/// timer (every minute or so) and deliver the changes to the loop. A file that kept its device
/// and inode but changed path is reported as `.moved`.
public final class PollingWatcher: Sendable {
    public let scanner: LibraryScanner
    private let known = Locked<[RawPath: ScannedFile]>([:])
    /// Folders that listed empty after holding many photos: kept one poll more (`EmptyListingGuard`).
    private let emptyListing = Locked(EmptyListingGuard())

    public init(scanner: LibraryScanner) {
        self.scanner = scanner
    }

    /// Sets the baseline (typically the first full scan) without reporting it.
    public func prime(with files: [ScannedFile]) {
        let snapshot = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        known.withLock { $0 = snapshot }
    }

    /// Rescans and returns what changed since the last poll (or the baseline).
    /// Photos under a folder the rescan could not read are kept as they were (`FailedListingGuard`);
    /// so are, until the next poll confirms it, many photos of a folder that listed empty
    /// (`EmptyListingGuard`).
    public func poll() -> [LibraryChange] {
        let (found, summary) = scanner.scanAll()
        let before = known.withLock { $0 }
        let shown = Array(before.values)
        let emptied = emptyListing.withLock { $0.check(found: found, summary: summary, shown: shown) }
        EmptyListingGuard.log(emptied, nextLook: "the next rescan", to: scanner.logger)
        let files = found + FailedListingGuard.kept(skipped: summary.skipped, shown: shown) + emptied.kept
        let changes = Self.diff(from: before, to: files)
        prime(with: files)
        return changes
    }

    static func diff(from old: [RawPath: ScannedFile], to files: [ScannedFile]) -> [LibraryChange] {
        var present = Set<RawPath>()
        var added: [ScannedFile] = []
        var changes: [LibraryChange] = []
        for file in files {
            present.insert(file.path)
            if let before = old[file.path] {
                if before.size != file.size || before.modificationSeconds != file.modificationSeconds
                    || before.modificationNanoseconds != file.modificationNanoseconds
                    || before.identity != file.identity {
                    changes.append(.added(file))
                }
            } else {
                added.append(file)
            }
        }
        var addedByIdentity = Dictionary(added.map { ($0.identity, $0) }, uniquingKeysWith: { a, _ in a })
        for (path, file) in old.sorted(by: { $0.key < $1.key }) where !present.contains(path) {
            if let target = addedByIdentity.removeValue(forKey: file.identity) {
                changes.append(.moved(from: path, to: target))
            } else {
                changes.append(.removed(path))
            }
        }
        let movedTargets = Set(changes.compactMap { change -> RawPath? in
            if case .moved(_, let to) = change { return to.path } else { return nil }
        })
        changes += added.filter { !movedTargets.contains($0.path) }.map { .added($0) }
        return changes
    }
}
