import Imaging
import Logging
import Platform
import SystemAccess
import SystemPackage

/// One depth-first walk over photo folders; `LibraryScanner` and `InotifyWatcher` both use it.
///
/// Rules:
/// - Directories are entered once each, by device and inode, so neither symlink loops nor bind
///   mounts nor overlapping roots can make the walk revisit (or never finish).
/// - Symbolic links are followed only when their resolved target lies inside one of the roots.
///   Links are taken after the real tree, and files are listed once by device and inode, so a
///   photo reachable both directly and through a link appears once, under its real path.
/// - Hidden entries (names starting with ".") are skipped: .Trash-1000, .thumbnails and the like.
/// - Sync tools' unfinished transfers and conflict copies are skipped (`SyncToolFileName`).
/// - FIFOs, sockets and devices are never opened.
/// - Anything unreadable is skipped with one log line.
final class TreeWalk {
    let roots: [RawPath]
    let logger: Logger
    let captureDate: LibraryScanner.CaptureDateReader?
    var visitedDirectories: Set<FileIdentity> = []
    /// Each file listed so far, by device and inode, with the path it was listed under.
    var seenFiles: [FileIdentity: RawPath] = [:]
    private(set) var skipped: [SkippedEntry] = []
    private(set) var fileCount = 0
    private(set) var directoryCount = 0
    /// Every folder the walk entered or could not read, as it was just before its listing was
    /// read: what a listing snapshot is checked against at the next start.
    private(set) var directoryStamps: [DirectoryStamp] = []
    /// Asked before entering each directory; false skips it (the watcher uses it to add watches).
    var shouldEnter: (RawPath, FileIdentity) -> Bool = { _, _ in true }
    var isCancelled: () -> Bool = { false }
    /// False walks directories only (setting up watches), skipping the stat of every file.
    var listsFiles = true
    /// False keeps skipped entries out of the log (a second walk over what the scan reported).
    var logsSkips = true
    var emit: (ScannedFile) -> Void = { _ in }
    /// How many entries of a folder are put in order before its first file is looked at (the
    /// rest when the walk gets to them): about the first batch.
    var orderedPrefix = 256
    /// Called before the rest of a large listing is put in order (the longest pause of a
    /// walk): the scanner hands out the photos found so far first.
    var willOrderListing: () -> Void = {}
    private var deferredLinks: [RawPath] = []
    /// Where folders are listed and files looked at: the kernel, unless a test says otherwise.
    var listing: any FolderListing = SystemFolderListing()

    init(roots: [RawPath], captureDate: LibraryScanner.CaptureDateReader?, logger: Logger) {
        self.roots = roots
        self.captureDate = captureDate
        self.logger = logger
    }

    /// Walks `starts` (directories, each inside `roots`), then the links met on the way.
    func run(_ starts: [RawPath]) {
        for start in starts { walkTree(start) }
        var index = 0
        while index < deferredLinks.count, !isCancelled() {
            followLink(deferredLinks[index])
            index += 1
        }
        deferredLinks = []
    }

    /// Depth first, each folder's files and subfolders interleaved in name order (see
    /// `DirectoryEntry.sortKey`), so photos come out in the list's name order and the first
    /// batch is the first screen. Every folder on the current path stays open (one descriptor
    /// per level).
    private func walkTree(_ start: RawPath) {
        var stack: [OpenDirectory] = []
        if let root = enter(start) { stack.append(root) }
        while let directory = stack.last, !isCancelled() {
            if !directory.isNextOrdered { willOrderListing() }
            guard let entry = directory.nextEntry() else {
                stack.removeLast()
                continue
            }
            guard entry.name.first != UInt8(ascii: ".") else { continue }
            let path = directory.path.appending(entry.name)
            switch entry.kind {
            case .directory: if let child = enter(path) { stack.append(child) }
            case .symlink: deferredLinks.append(path)
            case .regular: considerFile(path, name: entry.name, in: directory.reader)
            case .other, .unknown: continue
            }
        }
    }

    /// Opens and lists a folder not visited yet; nil when it was, is unreadable, or is declined.
    private func enter(_ directory: RawPath) -> OpenDirectory? {
        var reader: DirectoryReader
        do {
            reader = try DirectoryReader(path: directory, listing: listing)
        } catch {
            // Made readable later (chmod), it changes its own ctime: recorded so a snapshot notices.
            if let info = try? listing.status(of: directory.bytes, followingLinks: true) {
                directoryStamps.append(DirectoryStamp(path: directory, status: info))
            }
            skip(directory, .unreadable(errno: error.errno))
            return nil
        }
        guard visitedDirectories.insert(reader.identity).inserted,
              shouldEnter(directory, reader.identity) else { return nil }
        directoryStamps.append(DirectoryStamp(path: directory, status: reader.status))
        do {
            // Only the first screenful is ordered before the walk starts emitting.
            try reader.readEntries(orderedPrefix: listsFiles ? orderedPrefix : nil)
        } catch {
            skip(directory, .unreadable(errno: error.errno))
            return nil
        }
        directoryCount += 1
        return OpenDirectory(path: directory, reader: reader)
    }

    private func considerFile(_ path: RawPath, name: [UInt8], in reader: borrowing DirectoryReader) {
        guard listsFiles, let type = PhotoFileType(fileName: name), !SyncToolFileName.isExcluded(name) else { return }
        do {
            let info = try reader.status(of: name)
            guard info.kind == .regular else { return }
            add(path, type: type, info: info)
        } catch {
            skip(path, .unreadable(errno: error.errno))
        }
    }

    private func add(_ path: RawPath, type: PhotoFileType, info: Stat) {
        if let earlier = seenFiles[info.identity], isStill(earlier, info.identity) { return }
        seenFiles[info.identity] = path
        fileCount += 1
        emit(ScannedFile(path: path, type: type, status: info, captureDate: captureDate?(path)))
    }

    /// Whether the file listed at `path` is still there: a second name for it is the same photo
    /// (a hard link, or a link followed), but a file deleted since it was listed frees its inode
    /// number, which the file system soon gives to a new file that must not be taken for it.
    private func isStill(_ path: RawPath, _ identity: FileIdentity) -> Bool {
        (try? listing.status(of: path.bytes, followingLinks: true))?.identity == identity
    }

    private func followLink(_ link: RawPath) {
        guard let target = link.resolved() else { return skip(link, .brokenLink) }
        guard roots.contains(where: { target.isInside($0) }) else { return skip(link, .outsideRoots) }
        let info: Stat
        do {
            info = try listing.status(of: link.bytes, followingLinks: true)
        } catch {
            return skip(link, .unreadable(errno: error.errno))
        }
        switch info.kind {
        case .directory:
            walkTree(link)
        case .regular:
            if listsFiles, let type = PhotoFileType(fileName: link.lastComponent), !SyncToolFileName.isExcluded(link.lastComponent) {
                add(link, type: type, info: info)
            }
        default:
            return
        }
    }

    private func skip(_ path: RawPath, _ reason: SkippedEntry.Reason) {
        let entry = SkippedEntry(path: path, reason: reason)
        skipped.append(entry)
        if logsSkips { logger.warning("library: skipping \(entry)") }
    }
}

/// A folder the walk is inside of, and how far through its entries it is.
private final class OpenDirectory {
    let path: RawPath
    var reader: DirectoryReader
    private var next = 0

    init(path: RawPath, reader: consuming DirectoryReader) {
        self.path = path
        self.reader = reader
    }

    var isNextOrdered: Bool { reader.isOrdered(at: next) }

    func nextEntry() -> DirectoryEntry? {
        defer { next += 1 }
        return reader.entry(at: next)
    }
}
