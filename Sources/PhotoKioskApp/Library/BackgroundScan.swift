import Basics
import Graphics
import Imaging
import Platform
import Synchronization

/// Runs a `LibraryScanner` on its own thread and hands each batch to the event loop, so the grid
/// fills while a large library is still being scanned.
///
/// `deliver` is the loop's "run this on the loop" (the same closure the `ImageLoader` gets);
/// `onBatch` and `onFinish` run only inside delivered blocks, hence on the loop thread, in order.
/// It is made on the loop thread too: the callbacks stay bound to the thread that made it
/// (`LoopBound` checks every call in debug builds).
public final class BackgroundScan: Sendable {
    public typealias Delivery = @Sendable (@escaping @Sendable () -> Void) -> Void

    private let cancelled = CancelFlag()
    private let thread = Locked<WorkerThread?>(nil)

    private let firstScreenShown: ScanGate?
    /// The folder watch the scan set up as it went, once the scan is over (see `takeWatcher`).
    private let preparedWatcher = Locked<WatcherHandoff?>(nil)

    /// Starts scanning at once. With a `snapshot` store the first batches come from the listing
    /// snapshot when it holds, and `onVerified` gets what the walk then found (see
    /// `LibraryScanner.scan(snapshot:)`); it runs before `onFinish`. `onSnapshotUse` runs before
    /// the first batch: whether it comes from the snapshot. With `firstScreenShown` the
    /// scan waits after its first batch, when it has more to do, until the gate is opened (the
    /// loop has drawn that batch and the thumbnails it shows; a scan already done goes on, so
    /// that the folders are watched as soon as before):
    /// the rest of a large listing, or the walk that checks a snapshot, would otherwise compete
    /// with the first screen for the CPU and the loop, and on a small or busy board that is what
    /// made the first frame and thumbnails of 10,000 photos slower than those of 100.
    ///
    /// With `watchesFolders` the scan watches each folder (inotify) just before it reads it, so
    /// a photo copied in after its folder was read is heard, not missed until a restart; the
    /// watcher, holding what it heard, is the loop's to take once `onFinish` runs (`takeWatcher`).
    public init(scanner: LibraryScanner, batchSize: Int = 256, snapshot: ListingSnapshotStore? = nil,
                firstScreenShown: ScanGate? = nil, watchesFolders: Bool = false,
                deliver: @escaping Delivery,
                onBatch: @escaping ([ScannedFile]) -> Void,
                onVerified: @escaping ([ScannedFile]) -> Void = { _ in },
                onSnapshotUse: @escaping (SnapshotUse) -> Void = { _ in },
                onFinish: @escaping (LibraryScanner.Summary) -> Void = { _ in }) {
        let callbacks = LoopBound((onBatch, onFinish, onVerified, onSnapshotUse), on: .current)
        self.firstScreenShown = firstScreenShown
        let worker = WorkerThread(name: "pk-scan") { [cancelled, preparedWatcher] in
            // Without inotify (none left to give) the app falls back on watching later, or polling.
            let watcher = watchesFolders ? try? InotifyWatcher(scanner: scanner, watchingTree: false) : nil
            let beforeListing: (RawPath, FileIdentity) -> Void = { folder, identity in
                watcher?.watchFolder(folder, identity: identity)
            }
            let toLoop = { (batch: [ScannedFile]) in
                deliver {
                    guard !cancelled.isSet else { return }
                    callbacks.value.0(batch)
                }
            }
            let waitForFirstFrame: () -> Void = { firstScreenShown?.wait() }
            let summary: LibraryScanner.Summary
            var snapshotToSave: ListingSnapshot?
            if let snapshot {
                (summary, _, snapshotToSave) = scanner.scan(snapshot: snapshot, batchSize: batchSize, isCancelled: { cancelled.isSet },
                                       afterFirstBatch: waitForFirstFrame, beforeListing: beforeListing, onUse: { use in
                    deliver {
                        guard !cancelled.isSet else { return }
                        callbacks.value.3(use)
                    }
                }, onBatch: toLoop, onVerified: { found in
                    deliver {
                        guard !cancelled.isSet else { return }
                        callbacks.value.2(found)
                    }
                })
            } else {
                summary = scanner.scan(batchSize: batchSize, isCancelled: { cancelled.isSet },
                                       afterFirstBatch: waitForFirstFrame, beforeListing: beforeListing, onBatch: toLoop)
            }
            // Handed over before the end is delivered: the loop takes it when that runs.
            if let watcher, !cancelled.isSet { preparedWatcher.withLock { $0 = WatcherHandoff(watcher: watcher) } }
            deliver {
                guard !cancelled.isSet else { return }
                callbacks.value.1(summary)
            }
            if let snapshotToSave { snapshot?.save(snapshotToSave) }
        }
        thread.withLock { $0 = worker }
    }

    /// The folder watch the scan set up (with `watchesFolders`), with every change it heard since
    /// each folder was read still pending; nil before `onFinish` runs, after a cancel, without
    /// inotify, or once taken. Loop thread only.
    func takeWatcher() -> InotifyWatcher? {
        preparedWatcher.withLock { handoff in
            defer { handoff = nil }
            return handoff?.watcher
        }
    }

    /// Stops the scan soon (at the next directory); batches not yet run on the loop are dropped.
    public func cancel() {
        cancelled.set()
        firstScreenShown?.open()
    }

    /// Waits for the scanning thread to end (not for the loop to run the delivered blocks).
    public func waitUntilScanned() {
        let worker = thread.withLock { state -> WorkerThread? in
            defer { state = nil }
            return state
        }
        worker?.join()
    }

    deinit {
        cancel()
        waitUntilScanned()
    }
}

/// A gate a thread waits at until another opens it, once; opening it again does nothing.
public final class ScanGate: Sendable {
    private let lock = ThreadMutex()
    private let opened = ThreadCondition()
    private let isOpen = Atomic<Bool>(false)

    public init() {}

    public func open() {
        lock.withLock {
            isOpen.store(true, ordering: .releasing)
            opened.broadcast()
        }
    }

    func wait() {
        lock.withLock {
            while !isOpen.load(ordering: .acquiring) { opened.wait(releasing: lock) }
        }
    }
}

/// The scan's watcher on its way from the scanning thread, which no longer touches it once it
/// is stored, to the loop.
private struct WatcherHandoff: @unchecked Sendable {
    let watcher: InotifyWatcher
}

/// A flag one thread sets and another polls.
final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}
