import Imaging

/// One change to the set of photos, as a watcher saw it. Changes are applied in order.
public enum LibraryChange: Hashable, Sendable {
    /// A photo appeared or was rewritten (same path: its identity is kept).
    case added(ScannedFile)
    /// A photo was renamed or moved within the folders; it keeps its identity.
    case moved(from: RawPath, to: ScannedFile)
    /// A photo is gone.
    case removed(RawPath)
    /// A directory was renamed or moved within the folders; the photos below it keep their
    /// identities under the new path (their files follow as `.added` updates).
    case movedDirectory(from: RawPath, to: RawPath)
    /// A directory is gone (deleted or moved away), with every photo below it.
    case removedDirectory(RawPath)
    /// The watcher lost events (kernel queue overflow): rescan and diff (see `PhotoList.diff`).
    case rescanNeeded
}
