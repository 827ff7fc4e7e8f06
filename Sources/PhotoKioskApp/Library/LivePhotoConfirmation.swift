import Imaging
import Platform

/// Compares the content identifiers of the Live Photo pairs `PhotoList` formed by name
/// (`LivePhotoName`), on a thread of its own so that neither the scan nor the loop opens a file
/// for it: a batch at a time, in the order asked. A pair whose identifiers both read and differ is
/// handed to `onRefused` on the loop thread (which splits it: `PhotoList.refusePair`); a pair
/// whose identifiers cannot both be read stays paired by its names.
final class LivePhotoConfirmation {
    private let mailbox: Mailbox
    private let match: @Sendable (MotionPair) -> LivePhotoIdentity.Match
    /// Called on the loop thread with each pair found not to be one Live Photo.
    var onRefused: (MotionPair) -> Void = { _ in }
    private var waiting: [MotionPair] = []
    private var worker: WorkerThread?

    init(mailbox: Mailbox,
         match: @escaping @Sendable (MotionPair) -> LivePhotoIdentity.Match = { LivePhotoIdentity.match(still: $0.still, clip: $0.clip) }) {
        self.mailbox = mailbox
        self.match = match
    }

    /// Whether pairs are waiting or being compared.
    var isBusy: Bool { worker != nil || !waiting.isEmpty }

    /// Queues `pairs` for comparing.
    func check(_ pairs: [MotionPair]) {
        waiting += pairs
        startIfIdle()
    }

    private func startIfIdle() {
        guard worker == nil, !waiting.isEmpty else { return }
        let batch = waiting
        waiting = []
        let mailbox = self.mailbox, match = self.match
        let owner = WeakLoopBound(self, on: mailbox.thread)
        worker = WorkerThread(name: "pk-livephoto") {
            let refused = batch.filter { match($0) == .different }
            mailbox.post { owner.value?.finish(refused) }
        }
    }

    private func finish(_ refused: [MotionPair]) {
        worker?.join()   // it has posted: only its return is left
        worker = nil
        for pair in refused { onRefused(pair) }
        startIfIdle()
    }
}
