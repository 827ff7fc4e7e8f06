import Imaging

/// Takes the library scan's batches on the loop thread and puts them into the photo list so
/// that the first frame never waits for more than the first batch (about a screenful), however
/// large the library.
///
/// The first batch goes in at once. Every later one waits for the next turn of the loop (after
/// this turn's frame is drawn), and all that arrived by then go in together: one merge and one
/// grid reload per turn, rather than one per batch. Without this, a fast scan hands the loop
/// dozens of batches in one mailbox drain, and the first frame waited for all of them.
final class ScanIntake {
    /// Runs a block on a later turn of the loop.
    typealias Later = (@escaping () -> Void) -> Void

    private let later: Later
    /// Puts files into the list (set once the app is built; runs on the loop thread).
    var apply: ([ScannedFile]) -> Void = { _ in }
    /// The scan ended; runs on a later turn, right after its last files went in.
    var onFinish: (LibraryScanner.Summary) -> Void = { _ in }
    /// The first batch is on screen: runs on the turn after it went in (the scan waits for it).
    var onFirstShown: () -> Void = {}
    /// Whether the first batch comes from the listing snapshot: runs before that batch goes in.
    var onSnapshotUse: (SnapshotUse) -> Void = { _ in }
    private var pending: [ScannedFile] = []
    private var isFlushQueued = false
    private var hasApplied = false

    init(later: @escaping Later) {
        self.later = later
    }

    func receive(_ batch: [ScannedFile]) {
        guard hasApplied else {
            hasApplied = true
            apply(batch)
            later { [self] in onFirstShown() }
            return
        }
        pending += batch
        guard !isFlushQueued else { return }
        isFlushQueued = true
        later { [self] in
            isFlushQueued = false
            flush()
        }
    }

    /// Puts the list right after a start from the listing snapshot (set once the app is built):
    /// gets every file the walk found.
    var reconcile: ([ScannedFile]) -> Void = { _ in }

    /// The walk after a snapshot start found `files`: on the next turn, after what is waiting.
    func verified(_ files: [ScannedFile]) {
        later { [self] in
            flush()
            reconcile(files)
        }
    }

    /// The scan ended: on the next turn, what is still waiting goes in and then `onFinish` runs
    /// (it sets up watches, which walks the folders again: not before this turn's frame).
    func finish(_ summary: LibraryScanner.Summary) {
        later { [self] in
            flush()
            onFinish(summary)
        }
    }

    private func flush() {
        guard !pending.isEmpty else { return }
        let files = pending
        pending = []
        apply(files)
    }
}
