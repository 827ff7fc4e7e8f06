import Graphics
import Imaging
import Platform

/// Composes slides on a thread of their own, so the tens of milliseconds a blurred full-screen
/// slide takes (hundreds on a small board) never delay a touch on the event loop. One short-lived
/// thread per slide (one every interval); results come back through the loop's mailbox.
final class BackgroundSlideComposer {
    private let loop: EventLoop
    private var pending: [Int: (thread: WorkerThread, completion: (ComposedSlide) -> Void)] = [:]
    private var nextID = 0

    init(loop: EventLoop) {
        self.loop = loop
    }

    deinit {
        for job in pending.values { job.thread.join() }
    }

    /// Runs `make` (a `SlideComposer` call) on its own thread; `completion` runs on the loop
    /// thread unless `cancelAll()` came first.
    func compose(_ make: @escaping @Sendable () -> ComposedSlide, completion: @escaping (ComposedSlide) -> Void) {
        nextID += 1
        let id = nextID
        let mailbox = loop.mailbox
        let owner = WeakLoopBound(self, on: mailbox.thread)
        let thread = WorkerThread(name: "pk-slide") {
            let slide = make()
            mailbox.post { owner.value?.finish(id, slide) }
        }
        pending[id] = (thread, completion)
    }

    /// Forgets every slide in progress (the slideshow stopped); their threads end on their own.
    func cancelAll() {
        for id in pending.keys { pending[id]?.completion = { _ in } }
    }

    private func finish(_ id: Int, _ slide: ComposedSlide) {
        guard let job = pending.removeValue(forKey: id) else { return }
        job.thread.join()   // it has posted this result: only its return is left
        job.completion(slide)
    }
}
