import Imaging
import Platform

/// Rescans the library every `interval` seconds on a worker thread and hands what changed to
/// the loop: the watching for folders where inotify hears nothing (network file systems) or
/// cannot be used. One rescan at a time; a tick that finds one still running is skipped.
final class LibraryPoller {
    private let watcher: PollingWatcher
    private let loop: EventLoop
    private let interval: Double
    private let onChanges: ([LibraryChange]) -> Void
    private var timer: EventLoop.TimerID?
    private var worker: WorkerThread?

    /// `baseline`: the files already shown, so the first rescan reports only what changed since.
    init(scanner: LibraryScanner, baseline: [ScannedFile], loop: EventLoop, interval: Double,
         onChanges: @escaping ([LibraryChange]) -> Void) {
        watcher = PollingWatcher(scanner: scanner)
        watcher.prime(with: baseline)
        self.loop = loop
        self.interval = interval
        self.onChanges = onChanges
        arm()
    }

    deinit { stop() }

    func stop() {
        if let timer { loop.cancelTimer(timer) }
        timer = nil
        worker?.join()
        worker = nil
    }

    private func arm() {
        timer = loop.addTimer(after: interval) { [weak self] in
            guard let self else { return }
            self.timer = nil
            self.pollInBackground()
        }
    }

    private func pollInBackground() {
        guard worker == nil else { arm(); return }
        let watcher = self.watcher, mailbox = loop.mailbox, owner = WeakLoopBound(self, on: loop.thread)
        worker = WorkerThread(name: "pk-library-poll") {
            let changes = watcher.poll()
            mailbox.post {
                guard let poller = owner.value else { return }
                poller.worker?.join()   // it has posted: only its return is left
                poller.worker = nil
                if !changes.isEmpty { poller.onChanges(changes) }
                poller.arm()
            }
        }
    }
}
