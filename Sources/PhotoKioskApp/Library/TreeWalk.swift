import Imaging
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// One depth-first walk over photo folders; `LibraryScanner` and `InotifyWatcher` both use it.
///
/// Rules:
/// - Directories are entered once each, by device and inode, so neither symlink loops nor bind
///   mounts nor overlapping roots can make the walk revisit (or never finish).
/// - Symbolic links are followed only when their resolved target lies inside one of the roots.
///   Links are taken after the real tree, and files are listed once by device and inode, so a
///   photo reachable both directly and through a link appears once, under its real path.
/// - Hidden entries (names starting with ".") are skipped: .Trash-1000, .thumbnails and the like.
/// - FIFOs, sockets and devices are never opened.
/// - Anything unreadable is skipped with one log line.
final class TreeWalk {
    let roots: [RawPath]
    let logger: Logger
    let captureDate: LibraryScanner.CaptureDateReader?
    var visitedDirectories: Set<FileIdentity> = []
    var seenFiles: Set<FileIdentity> = []
    private(set) var skipped: [SkippedEntry] = []
    private(set) var fileCount = 0
    private(set) var directoryCount = 0
    /// Asked before entering each directory; false skips it (the watcher uses it to add watches).
    var shouldEnter: (RawPath, FileIdentity) -> Bool = { _, _ in true }
    var isCancelled: () -> Bool = { false }
    /// False walks directories only (setting up watches), skipping the stat of every file.
    var listsFiles = true
    /// False keeps skipped entries out of the log (a second walk over what the scan reported).
    var logsSkips = true
    var emit: (ScannedFile) -> Void = { _ in }
    private var deferredLinks: [RawPath] = []

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

    private func walkTree(_ start: RawPath) {
        var stack = [start]
        while let directory = stack.popLast(), !isCancelled() {
            var reader: DirectoryReader
            do {
                reader = try DirectoryReader(path: directory)
            } catch {
                skip(directory, .unreadable(errno: error.code))
                continue
            }
            guard visitedDirectories.insert(reader.identity).inserted,
                  shouldEnter(directory, reader.identity) else { continue }
            do {
                try reader.readEntries()
            } catch {
                skip(directory, .unreadable(errno: error.code))
                continue
            }
            directoryCount += 1
            var subdirectories: [RawPath] = []
            for (name, kind) in reader.entries where name.first != UInt8(ascii: ".") {
                let path = directory.appending(name)
                switch kind {
                case .directory: subdirectories.append(path)
                case .symlink: deferredLinks.append(path)
                case .regular: considerFile(path, name: name, in: reader)
                case .other: continue
                case .unknown:
                    // File systems without d_type (some network and FUSE mounts): ask stat.
                    guard let info = try? reader.status(of: name) else { continue }
                    switch info.kind {
                    case .directory: subdirectories.append(path)
                    case .symlink: deferredLinks.append(path)
                    case .regular: considerFile(path, name: name, in: reader)
                    default: continue
                    }
                }
            }
            // Reversed so the stack pops them in name order.
            stack.append(contentsOf: subdirectories.reversed())
        }
    }

    private func considerFile(_ path: RawPath, name: [UInt8], in reader: borrowing DirectoryReader) {
        guard listsFiles, let type = PhotoFileType(fileName: name) else { return }
        do {
            let info = try reader.status(of: name)
            guard info.kind == .regular else { return }
            add(path, type: type, info: info)
        } catch {
            skip(path, .unreadable(errno: error.code))
        }
    }

    private func add(_ path: RawPath, type: PhotoFileType, info: stat) {
        guard seenFiles.insert(info.identity).inserted else { return }
        fileCount += 1
        emit(ScannedFile(path: path, type: type, status: info, captureDate: captureDate?(path)))
    }

    private func followLink(_ link: RawPath) {
        guard let target = link.resolved() else { return skip(link, .brokenLink) }
        guard roots.contains(where: { target.isInside($0) }) else { return skip(link, .outsideRoots) }
        var info = stat()
        guard link.withCString({ stat($0, &info) }) == 0 else {
            return skip(link, .unreadable(errno: errno))
        }
        switch info.kind {
        case .directory:
            walkTree(link)
        case .regular:
            if listsFiles, let type = PhotoFileType(fileName: link.lastComponent) {
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
