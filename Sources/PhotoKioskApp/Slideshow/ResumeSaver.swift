import Logging

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
        do {
            try store.save(state)
            lastSaved = state
            lastSaveTime = now
        } catch {
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
