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
    private let apply: ([ScannedFile]) -> Void
    private var pending: [ScannedFile] = []
    private var isFlushQueued = false
    private var hasApplied = false

    init(later: @escaping Later, apply: @escaping ([ScannedFile]) -> Void) {
        self.later = later
        self.apply = apply
    }

    /// Batches waiting for the next turn (for tests).
    var pendingCount: Int { pending.count }

    func receive(_ batch: [ScannedFile]) {
        guard hasApplied || !pending.isEmpty else {
            hasApplied = true
            apply(batch)
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

    /// Applies whatever is waiting now (the scan finished: nothing may stay behind it).
    func flush() {
        guard !pending.isEmpty else { return }
        let files = pending
        pending = []
        hasApplied = true
        apply(files)
    }
}
