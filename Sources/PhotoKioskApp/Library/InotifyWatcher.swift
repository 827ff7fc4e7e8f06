import Imaging
import Logging
import Platform
import SystemAccess

/// Watches the photo folders with inotify (Platform's `FolderWatch`) and turns its events into
/// `LibraryChange`s.
///
/// Every directory gets a watch (inotify is not recursive); directories created or moved in get
/// theirs as they appear, and their photos are reported at once (files may have landed before
/// the watch did). New photos are reported on IN_CLOSE_WRITE (complete, not half-copied), on
/// IN_MOVED_TO, and on IN_CREATE only for a hard link (a second name for a finished file: no
/// write or close follows). A file created by open(2) is still being written, however many bytes
/// it already has when the event is read (a slow copy, rclone writing in place): it shows on its
/// IN_CLOSE_WRITE. A rename whose
/// two halves arrive in one read becomes `.moved` (`.movedDirectory` for a folder), keeping the
/// photos' identities.
///
/// Attached to the app's event loop, it hands over the changes whenever there are some (or call
/// `readChanges()` yourself). Not thread-safe: use it from the loop thread.
/// Network file systems do not report remote changes to inotify; see `LibraryWatchMode`.
public final class InotifyWatcher {
    private let folderWatch: any FolderWatch
    private let roots: [RawPath]
    private let captureDate: LibraryScanner.CaptureDateReader?
    private let logger: Logger
    private var directories: [Int32: RawPath] = [:]
    private var identities: [Int32: FileIdentity] = [:]
    private var watchByIdentity: [FileIdentity: Int32] = [:]
    /// Directories that could not be watched (e.g. fs.inotify.max_user_watches reached); when
    /// non-zero, changes there go unnoticed and the app should prefer polling.
    public private(set) var failedWatches = 0

    /// Sets up watches on every directory under the scanner's roots; without `folderWatch`, on
    /// a new inotify instance (which fails when the kernel has none to give). With
    /// `watchingTree` false it adds none: a scan adds each folder's watch just before it reads
    /// that folder (`watchFolder`), so that nothing written meanwhile goes unheard.
    public init(scanner: LibraryScanner, folderWatch: (any FolderWatch)? = nil, watchingTree: Bool = true) throws(SystemError) {
        if let folderWatch {
            self.folderWatch = folderWatch
        } else {
            self.folderWatch = try Inotify()
        }
        let (resolved, _) = scanner.resolvedRoots()
        roots = resolved
        captureDate = scanner.captureDate
        logger = scanner.logger
        if watchingTree { _ = watchTree(roots, listingFiles: false) }
    }

    /// Calls `onChanges` on the loop thread with the changes, whenever the folders changed.
    public func attach(to loop: any EventLoopRegistry, onChanges: @escaping ([LibraryChange]) -> Void) throws(PlatformError) {
        try folderWatch.attach(to: loop) { [unowned self] in onChanges(self.readChanges()) }
    }

    public func detach(from loop: any EventLoopRegistry) { folderWatch.detach(from: loop) }

    /// Number of directories watched.
    public var watchCount: Int { directories.count }

    /// Reads every pending event and returns the resulting changes, in order (empty when none).
    public func readChanges() -> [LibraryChange] {
        var changes: [LibraryChange] = []
        var movedFrom: [UInt32: (path: RawPath, index: Int)] = [:]
        var addedAt: [RawPath: Int] = [:]
        for event in folderWatch.readEvents() {
            handle(wd: event.watch, mask: event.kinds, cookie: event.cookie, name: event.name, into: &changes,
                   movedFrom: &movedFrom, addedAt: &addedAt)
        }
        return changes
    }

    private func handle(wd: Int32, mask: FolderEventKinds, cookie: UInt32, name: [UInt8],
                        into changes: inout [LibraryChange],
                        movedFrom: inout [UInt32: (path: RawPath, index: Int)],
                        addedAt: inout [RawPath: Int]) {
        // IN_CREATE and IN_CLOSE_WRITE of one copy both find the finished file: report it once.
        func add(_ file: ScannedFile) {
            if let index = addedAt[file.path] {
                changes[index] = .added(file)
            } else {
                addedAt[file.path] = changes.count
                changes.append(.added(file))
            }
        }
        if mask.contains(.overflow) { return changes.append(.rescanNeeded) }
        if mask.contains(.watchRemoved) { return forget(wd) }
        guard let directory = directories[wd] else { return }
        if !mask.isDisjoint(with: [.folderDeleted, .folderMoved]) {
            // A subdirectory's parent reports it; only a vanished root needs saying here.
            if roots.contains(directory) {
                changes.append(.removedDirectory(directory))
                forgetTree(directory)
            }
            return
        }
        guard !name.isEmpty, name.first != UInt8(ascii: ".") else { return }
        let path = directory.appending(name)
        if mask.contains(.isFolder) {
            if !mask.isDisjoint(with: [.created, .movedTo]) {
                if mask.contains(.movedTo), let origin = movedFrom.removeValue(forKey: cookie) {
                    changes[origin.index] = .movedDirectory(from: origin.path, to: path)
                }
                for file in watchTree([path]) { add(file) }
            } else if !mask.isDisjoint(with: [.deleted, .movedFrom]) {
                addedAt = addedAt.filter { !$0.key.isInside(path) }
                if mask.contains(.movedFrom) { movedFrom[cookie] = (path, changes.count) }
                changes.append(.removedDirectory(path))
                forgetTree(path)
            }
            return
        }
        guard PhotoFileType(fileName: name) != nil, !SyncToolFileName.isExcluded(name) else { return }
        if !mask.isDisjoint(with: [.deleted, .movedFrom]) { addedAt[path] = nil }
        if mask.contains(.deleted) {
            changes.append(.removed(path))
        } else if mask.contains(.movedFrom) {
            movedFrom[cookie] = (path, changes.count)
            changes.append(.removed(path))
        } else if mask.contains(.movedTo) {
            guard let file = photo(at: path) else { return }
            if let origin = movedFrom.removeValue(forKey: cookie) {
                changes[origin.index] = .moved(from: origin.path, to: file)
            } else {
                add(file)
            }
        } else if mask.contains(.closedAfterWrite) {
            if let file = photo(at: path) { add(file) }
        } else if mask.contains(.created) {
            if let file = photo(at: path, onlyHardLink: true) { add(file) }
        }
    }

    /// The photo at `path` if it is a regular image file (links are covered by their targets).
    /// With `onlyHardLink`, nil unless the file has another name too (`link(2)` made this one).
    private func photo(at path: RawPath, onlyHardLink: Bool = false) -> ScannedFile? {
        guard let type = PhotoFileType(fileName: path.lastComponent) else { return nil }
        guard let info = try? FileSystemCalls.status(path.filePath, followingLinks: false), info.kind == .regular,
              !onlyHardLink || (info.linkCount > 1 && info.size > 0) else { return nil }
        return ScannedFile(path: path, type: type, status: info, captureDate: captureDate?(path))
    }

    /// Adds watches to every directory under `starts` not watched yet; returns the photos found.
    private func watchTree(_ starts: [RawPath], listingFiles: Bool = true) -> [ScannedFile] {
        let walk = TreeWalk(roots: roots, captureDate: captureDate, logger: logger)
        walk.listsFiles = listingFiles
        // The first, directories-only walk retraces the scan, which already logged its skips.
        walk.logsSkips = listingFiles
        var found: [ScannedFile] = []
        walk.emit = { found.append($0) }
        walk.shouldEnter = { [self] directory, identity in
            guard watchByIdentity[identity] == nil else { return false }
            watchFolder(directory, identity: identity)
            return true
        }
        walk.run(starts)
        return found
    }

    /// Starts watching one folder (found by a walk, about to be read) unless it is watched already.
    public func watchFolder(_ directory: RawPath, identity: FileIdentity) {
        guard watchByIdentity[identity] == nil else { return }
        let wd: Int32
        do throws(SystemError) {
            wd = try folderWatch.addWatch(folder: directory.bytes)
        } catch {
            failedWatches += 1
            if failedWatches == 1 {
                logger.warning("library: cannot watch \(directory): \(error.errno); changes there need polling")
            }
            return
        }
        if let previous = identities[wd] { watchByIdentity[previous] = nil }
        directories[wd] = directory
        identities[wd] = identity
        watchByIdentity[identity] = wd
    }

    private func forget(_ wd: Int32) {
        directories[wd] = nil
        if let identity = identities.removeValue(forKey: wd) { watchByIdentity[identity] = nil }
    }

    /// Drops the watches of `directory` and everything below it (it moved or vanished).
    private func forgetTree(_ directory: RawPath) {
        for (wd, path) in directories where path.isInside(directory) {
            folderWatch.removeWatch(wd)
            forget(wd)
        }
    }
}
