import Logging
import SystemAccess

/// Writes where the kiosk is, for a restart. Unchanged states are not written; the slideshow's
/// moving position at most once per `slideshowSaveInterval`; a failing write is reported once.
final class ResumeSaver {
    /// While the slideshow runs, its position is saved at most this often: each save is a file
    /// and a journal commit on the SD card (issue 33: a steady slideshow should write nothing).
    /// Starting or stopping the slideshow, leaving it and a clean exit still save at once, so a
    /// power cut resumes the slideshow, at most an hour's slides behind.
    static let slideshowSaveInterval: Double = 3600

    private let store: ResumeStore
    private let logger: Logger
    private var lastSaved: ResumeState?
    private var lastSaveTime = -Double.infinity
    private var saveFailed = false
    /// After a failed write, unforced saves wait (5 s doubling to 5 min, monotonic): a failing
    /// card is not asked at every slide. A forced save (leaving the slideshow, a clean exit) and
    /// the next change after the wait still try.
    private var retry = WriteRetryBackoff()
    /// Test seams: the storage told of each write, and a step made to fail with EIO.
    var health = StorageHealth.shared
    var failing: (AtomicFile.Step) -> Bool = { _ in false }

    /// `lastSaved`: the state the store holds already (the one this run resumed from).
    init(store: ResumeStore, lastSaved: ResumeState?, logger: Logger) {
        self.store = store
        self.lastSaved = lastSaved
        self.logger = logger
    }

    /// `force`: write a changed slideshow position now rather than within the interval.
    func save(_ state: ResumeState, now: Double, force: Bool) {
        guard state != lastSaved else { return }
        if !force, let lastSaved, lastSaved.inSlideshow, state.inSlideshow, lastSaved.screen == state.screen,
           now - lastSaveTime < Self.slideshowSaveInterval { return }
        guard force || retry.allowsAttempt(at: now) else { return }
        do {
            try store.save(state, health: health, failing: failing)
            lastSaved = state
            lastSaveTime = now
            retry.succeeded()
        } catch {
            retry.failed(at: now)
            // EIO, EROFS, ENOSPC: StorageHealth has said so once for every writer.
            if StorageHealth.isStorageFailure(error.errno) {
                saveFailed = true
                logger.debug("cannot save the resume state to \(store.path): \(error)")
                return
            }
            // Once: a kiosk run by hand without write access to the state folder would say it
            // every minute otherwise.
            if saveFailed {
                logger.debug("cannot save the resume state to \(store.path): \(error)")
            } else {
                logger.warning("cannot save the resume state to \(store.path): \(error) (a restart will begin at the grid)")
            }
            saveFailed = true
        }
    }
}
