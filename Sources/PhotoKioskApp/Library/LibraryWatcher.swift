import Imaging
import Logging
import Platform

/// Keeps looking at the photo folders once the first scan is done: inotify on local folders, a
/// timed rescan where inotify hears nothing (network file systems) or is unavailable, and a full
/// rescan when a folder unmounts, is mounted over, is renamed away or comes back. It decides when
/// and how to look; the app applies what it finds (`onChanges`, `onRescanned`).
final class LibraryWatcher {
    private var scanner: LibraryScanner
    private let photos: PhotoList
    private let loop: EventLoop
    private let logger: Logger
    /// The start's scan, then each rescan.
    private var scan: BackgroundScan?
    private var inotify: InotifyWatcher?
    /// Periodic rescans where inotify cannot hear changes (network folders) or is unavailable.
    private var poller: LibraryPoller?
    /// Seconds between those rescans (tests shorten it).
    var pollInterval = 60.0
    private var roots: RootPresence?
    /// Where mounts are read and watched: the kernel's table, or a fake a test sets before the
    /// loop first runs.
    var mountTable: any MountTableSource = SystemMountTable()
    private var isWatchingMounts = false
    private var rootCheckTimer: EventLoop.TimerID?
    /// How often the folders are checked for having vanished or come back (unmounts).
    static let rootCheckInterval = 3.0

    /// Folders a rescan found empty after holding many photos: kept until a second look.
    private var emptyListing = EmptyListingGuard()
    private var emptyListingTimer: EventLoop.TimerID?
    /// Seconds before that second look (tests shorten it): long enough for a share's automount
    /// or a sync tool to put things right.
    var emptyListingRecheckDelay = 30.0

    /// Photos a listing found that may still be being written, held until they settle.
    let settling: SettlingFiles

    /// Changes inotify or the poller heard of (runs on the loop thread).
    var onChanges: ([LibraryChange]) -> Void = { _ in }
    /// Everything a full rescan found: the list becomes that.
    var onRescanned: ([ScannedFile]) -> Void = { _ in }

    /// - Parameters:
    ///   - startup: the start's scan, which this watcher cancels when it goes away.
    ///   - photos: the list, whose files are the poller's first baseline.
    init(startup: LibraryStartup, photos: PhotoList, loop: EventLoop, logger: Logger) {
        scanner = startup.scanner
        scan = startup.scan
        self.photos = photos
        self.loop = loop
        self.logger = logger
        settling = SettlingFiles(loop: loop, captureDate: startup.scanner.captureDate) { [weak photos] path in
            photos?.photo(at: path)?.file
        }
        settling.onSettled = { [weak self] changes in self?.onChanges(changes) }
    }

    /// What a scan found, without the photos that may still be being written (`SettlingFiles`).
    func settled(_ found: [ScannedFile]) -> [ScannedFile] { settling.settled(found) }

    deinit {
        scan?.cancel()
        if let emptyListingTimer { loop.cancelTimer(emptyListingTimer) }
    }

    /// The first scan finished: watch the folders, and the mount table for them, from now on.
    /// The scan watched each folder just before reading it; what changed since is applied now.
    func beginWatching() {
        startWatching(prepared: scan?.takeWatcher())
        checkRootsLater()
    }

    /// Scans everything again and applies the difference (after lost inotify events or a
    /// folder that changed under the watcher), then watches the folders afresh.
    ///
    /// The watch in place goes on while the rescan runs, and the rescan sets up its own as it
    /// reads each folder: the list becomes what the rescan found with what that new watch heard
    /// since played over it, so a photo added, deleted or renamed during the rescan ends as it is
    /// on disk (and a photo the old watch already showed keeps its place and identity).
    func rescan() {
        scan?.cancel()
        let found = ScanCollector()
        scan = BackgroundScan(scanner: scanner, watchesFolders: true,
                              deliver: { [mailbox = loop.mailbox] block in mailbox.post(block) }, onBatch: { batch in
            found.files += batch
        }, onFinish: { [weak self] summary in
            guard let self else { return }
            let watcher = self.scan?.takeWatcher()
            let heard = watcher?.readChanges() ?? []
            let shown = self.photos.allFiles   // with Live Photos' attached clips, which a rescan finds too
            let kept = FailedListingGuard.kept(skipped: summary.skipped, shown: shown)
            if !kept.isEmpty {
                self.logger.notice("library: a folder could not be read; its \(kept.count) photos stay shown")
            }
            let emptied = self.emptyListing.check(found: found.files, summary: summary, shown: shown)
            EmptyListingGuard.log(emptied, nextLook: "a rescan in \(Int(self.emptyListingRecheckDelay)) s", to: self.logger)
            if !emptied.doubted.isEmpty { self.lookAgainLater() }
            let files = self.settling.settled(found.files) + kept + emptied.kept
            self.onRescanned(ScanReconciliation.files(found: files, heard: heard))
            // Its unread events are in the new watch's too, or in what the rescan found.
            self.inotify?.detach(from: self.loop)
            self.inotify = nil
            self.startWatching(prepared: watcher)
            if heard.contains(.rescanNeeded) { self.rescan() }
        })
    }

    /// The folders to show changed (a photo source added or removed on the phone page): the new
    /// set is scanned, the list becomes what it holds (a removed folder's photos leave it), and
    /// it is watched from then on. Call after the first scan has finished.
    func changeRoots(to newRoots: [RawPath]) {
        guard newRoots != scanner.roots else { return }
        scanner.roots = newRoots
        roots = nil
        rescan()
        checkRootsLater()
    }

    /// The second look at folders that listed empty (`EmptyListingGuard`).
    private func lookAgainLater() {
        guard emptyListingTimer == nil else { return }
        emptyListingTimer = loop.addTimer(after: emptyListingRecheckDelay) { [weak self] in
            self?.emptyListingTimer = nil
            self?.rescan()
        }
    }

    // MARK: Folders vanishing and returning

    /// A folder unmounted, mounted over, renamed away, or back again: rescan (inotify does not
    /// report these). Checked when the mount table changes, and every few seconds only while a
    /// folder is missing, so an idle kiosk with all its folders present has no wakeups.
    private func checkRootsLater() {
        roots = roots ?? RootPresence(roots: scanner.roots)
        if !isWatchingMounts {
            do {
                isWatchingMounts = try mountTable.watchChanges(on: loop) { [weak self] in self?.checkRoots() }
            } catch {
                logger.notice("mount changes not watched: \(error)")
            }
        }
        scheduleMissingRootCheck()
    }

    private func checkRoots() {
        let now = RootPresence(roots: scanner.roots)
        if now != roots {
            logger.notice("library: a photo folder appeared, vanished or was remounted; rescanning")
            roots = now
            rescan()
        }
        scheduleMissingRootCheck()
    }

    /// A folder that does not exist yet (a share not mounted) is looked for every few seconds.
    private func scheduleMissingRootCheck() {
        guard rootCheckTimer == nil, roots?.isMissingAny ?? false else { return }
        rootCheckTimer = loop.addTimer(after: Self.rootCheckInterval) { [weak self] in
            self?.rootCheckTimer = nil
            self?.checkRoots()
        }
    }

    // MARK: Changes inside the folders

    /// Watches the folders with `prepared` (a scan's watcher, which has watched each folder
    /// since just before reading it; its pending changes are applied at once), else with a new
    /// inotify watcher, else by polling.
    private func startWatching(prepared: InotifyWatcher? = nil) {
        poller?.stop()
        poller = nil
        if LibraryWatchMode.recommended(for: scanner.roots, mounts: mountTable.currentMounts()) == .polling {
            startPolling(because: "a photo folder is on a network file system, where inotify hears nothing")
            return
        }
        do {
            let watcher = try prepared ?? InotifyWatcher(scanner: scanner)
            try watcher.attach(to: loop) { [weak self] changes in self?.heard(changes) }
            inotify = watcher
            let pending = watcher.readChanges()
            if !pending.isEmpty { heard(pending) }
        } catch {
            startPolling(because: "inotify is not available (\(error))")
        }
    }

    private func heard(_ changes: [LibraryChange]) {
        onChanges(changes)
        // A root renamed or deleted away is reported here; note it gone so that its return is
        // seen as a change by the root check (which now polls for it).
        roots = RootPresence(roots: scanner.roots)
        scheduleMissingRootCheck()
    }

    private func startPolling(because reason: String) {
        logger.notice("library: rescanning every \(Int(pollInterval)) s: \(reason)")
        let baseline = (0..<photos.count).map { photos[$0].file }
        poller = LibraryPoller(scanner: scanner, baseline: baseline, loop: loop, interval: pollInterval) { [weak self] changes in
            guard let self else { return }
            let settled = self.settling.settled(changes)
            if !settled.isEmpty { self.onChanges(settled) }
        }
    }
}
