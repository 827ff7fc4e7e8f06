import Platform

/// Holds the library scan after its first batch until the first screen is complete: the batch
/// drawn and every thumbnail it shows in (or failed), or `patience` seconds at the most (a slow
/// decode, or an album opened at start, must not hold the library back).
///
/// Why: until then the rest of a large listing, or the walk that checks the listing snapshot,
/// competes with the visible thumbnails' loads for the CPU and the loop; a warm start of 10,000
/// photos showed its first screen's thumbnails 2.6 times later than one of 100 (262 against
/// 102 ms, `photokiosk-bench first-frame` on a busy two-core machine).
final class FirstScreenWait {
    /// Seconds at the most (tests that must not depend on the machine's speed raise it).
    var patience = 1.0
    private let gate: ScanGate
    private let loop: EventLoop
    private let isComplete: () -> Bool
    private var patienceTimer: EventLoop.TimerID?
    private var isWaiting = false
    private var isOpen = false

    /// - Parameter isComplete: whether every thumbnail on screen is in (the grid's
    ///   `isVisibleContentLoaded`).
    init(gate: ScanGate, loop: EventLoop, isComplete: @escaping () -> Bool) {
        self.gate = gate
        self.loop = loop
        self.isComplete = isComplete
    }

    /// The first batch is on screen: the scan goes on now if its thumbnails are in too, else
    /// when they are (`thumbnailArrived`) or when patience runs out.
    func firstBatchDrawn() {
        guard !isOpen, !isWaiting else { return }
        if isComplete() { return open() }
        isWaiting = true
        patienceTimer = loop.addTimer(after: patience) { [weak self] in
            self?.patienceTimer = nil
            self?.open()
        }
    }

    /// A thumbnail came in (or failed).
    func thumbnailArrived() {
        guard isWaiting, isComplete() else { return }
        open()
    }

    private func open() {
        guard !isOpen else { return }
        isOpen = true
        isWaiting = false
        if let patienceTimer { loop.cancelTimer(patienceTimer) }
        patienceTimer = nil
        gate.open()
    }
}
