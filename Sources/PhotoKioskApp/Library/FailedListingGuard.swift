import Imaging

/// A folder the scan could not read is no proof its photos are gone: an I/O error, a stale
/// network handle or a permission slip must not empty the frame. A rescan or a poll keeps the
/// photos shown under such a folder (or at such a file) as they were, until a listing succeeds.
/// Only "no such file or directory" and "not a directory" count as gone: the folder or file
/// really went away while the scan ran (its removal, if inotify heard it, is applied as well).
enum FailedListingGuard {
    /// The photos of `shown` the scan's failures say nothing about: keep them.
    static func kept(skipped: [SkippedEntry], shown: [ScannedFile]) -> [ScannedFile] {
        let failed = skipped.compactMap { entry -> RawPath? in
            guard case .unreadable(let code) = entry.reason, code != .noSuchFileOrDirectory, code != .notDirectory else {
                return nil
            }
            return entry.path
        }
        guard !failed.isEmpty else { return [] }
        return shown.filter { file in failed.contains { file.path.isInside($0) } }
    }
}
