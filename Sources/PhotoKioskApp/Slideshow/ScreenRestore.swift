import Graphics

/// After a restart, reopens the screen the person was on once the library scan has found what it
/// needs (the grid at its top needs nothing).
final class ScreenRestore {
    private var pending: KioskScreen?

    init(_ resume: ResumeState) {
        pending = resume.screen == .grid(scrollOffset: 0) ? nil : resume.screen
    }

    func restoreIfReady(in app: KioskApp) {
        guard let screen = pending, app.isScanFinished else { return }
        pending = nil
        switch screen {
        case .photo(let path):
            if let index = app.photoPaths.firstIndex(of: path) { app.openPhoto(at: index) }
        case .grid(let offset):
            app.grid.layoutIfNeeded()
            app.grid.setContentOffset(Point(x: 0, y: offset), animated: false)
        case .album:
            break   // albums restore through their own screen once it exists
        }
    }
}
