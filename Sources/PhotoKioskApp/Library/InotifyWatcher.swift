import Imaging
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Watches the photo folders with inotify and turns kernel events into `LibraryChange`s.
///
/// Every directory gets a watch (inotify is not recursive); directories created or moved in get
/// theirs as they appear, and their photos are reported at once (files may have landed before
/// the watch did). New photos are reported on IN_CLOSE_WRITE (complete, not half-copied), on
/// IN_MOVED_TO, and on IN_CREATE only when they already have bytes (a hard link). A rename whose
/// two halves arrive in one read becomes `.moved` (`.movedDirectory` for a folder), keeping the
/// photos' identities.
///
/// The app's event loop polls `fileDescriptor` for reading and calls `readChanges()` when it is
/// readable (the descriptor is non-blocking). Not thread-safe: use it from the loop thread.
/// Network file systems do not report remote changes to inotify; see `LibraryWatchMode`.
public final class InotifyWatcher {
    public let fileDescriptor: Int32
    private let roots: [RawPath]
    private let captureDate: LibraryScanner.CaptureDateReader?
    private let logger: Logger
    private var directories: [Int32: RawPath] = [:]
    private var identities: [Int32: FileIdentity] = [:]
    private var watchByIdentity: [FileIdentity: Int32] = [:]
    /// Directories that could not be watched (e.g. fs.inotify.max_user_watches reached); when
    /// non-zero, changes there go unnoticed and the app should prefer polling.
    public private(set) var failedWatches = 0

    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE
                                     | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    public struct Unavailable: Error, CustomStringConvertible {
        public let errno: Int32
        public var description: String { "inotify unavailable: \(errnoText(errno))" }
    }

    /// Sets up watches on every directory under the scanner's roots.
    public init(scanner: LibraryScanner) throws(Unavailable) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw Unavailable(errno: errno) }
        fileDescriptor = fd
        let (resolved, _) = scanner.resolvedRoots()
        roots = resolved
        captureDate = scanner.captureDate
        logger = scanner.logger
        _ = watchTree(roots, listingFiles: false)
    }

    deinit { close(fileDescriptor) }

    /// Number of directories watched.
    public var watchCount: Int { directories.count }

    /// Reads every pending event and returns the resulting changes, in order (empty when none).
    public func readChanges() -> [LibraryChange] {
        var changes: [LibraryChange] = []
        var movedFrom: [UInt32: (path: RawPath, index: Int)] = [:]
        var addedAt: [RawPath: Int] = [:]
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(fileDescriptor, buffer, capacity)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var offset = 0
            while offset + 16 <= count {
                let wd = buffer.load(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                let cookie = buffer.load(fromByteOffset: offset + 8, as: UInt32.self)
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = UnsafeRawBufferPointer(start: buffer + offset + 16, count: length)
                let name = Array(nameBytes.prefix { $0 != 0 })
                offset += 16 + length
                handle(wd: wd, mask: mask, cookie: cookie, name: name, into: &changes,
                       movedFrom: &movedFrom, addedAt: &addedAt)
            }
        }
        return changes
    }

    private func handle(wd: Int32, mask: UInt32, cookie: UInt32, name: [UInt8],
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
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { return changes.append(.rescanNeeded) }
        if mask & UInt32(IN_IGNORED) != 0 { return forget(wd) }
        guard let directory = directories[wd] else { return }
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
            // A subdirectory's parent reports it; only a vanished root needs saying here.
            if roots.contains(directory) {
                changes.append(.removedDirectory(directory))
                forgetTree(directory)
            }
            return
        }
        guard !name.isEmpty, name.first != UInt8(ascii: ".") else { return }
        let path = directory.appending(name)
        if mask & UInt32(IN_ISDIR) != 0 {
            if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                if mask & UInt32(IN_MOVED_TO) != 0, let origin = movedFrom.removeValue(forKey: cookie) {
                    changes[origin.index] = .movedDirectory(from: origin.path, to: path)
                }
                for file in watchTree([path]) { add(file) }
            } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                addedAt = addedAt.filter { !$0.key.isInside(path) }
                if mask & UInt32(IN_MOVED_FROM) != 0 { movedFrom[cookie] = (path, changes.count) }
                changes.append(.removedDirectory(path))
                forgetTree(path)
            }
            return
        }
        guard PhotoFileType(fileName: name) != nil else { return }
        if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 { addedAt[path] = nil }
        if mask & UInt32(IN_DELETE) != 0 {
            changes.append(.removed(path))
        } else if mask & UInt32(IN_MOVED_FROM) != 0 {
            movedFrom[cookie] = (path, changes.count)
            changes.append(.removed(path))
        } else if mask & UInt32(IN_MOVED_TO) != 0 {
            guard let file = photo(at: path, requireBytes: false) else { return }
            if let origin = movedFrom.removeValue(forKey: cookie) {
                changes[origin.index] = .moved(from: origin.path, to: file)
            } else {
                add(file)
            }
        } else if mask & UInt32(IN_CLOSE_WRITE) != 0 {
            if let file = photo(at: path, requireBytes: false) { add(file) }
        } else if mask & UInt32(IN_CREATE) != 0 {
            if let file = photo(at: path, requireBytes: true) { add(file) }
        }
    }

    /// The photo at `path` if it is a regular image file (links are covered by their targets).
    private func photo(at path: RawPath, requireBytes: Bool) -> ScannedFile? {
        guard let type = PhotoFileType(fileName: path.lastComponent) else { return nil }
        var info = stat()
        guard path.withCString({ lstat($0, &info) }) == 0, info.kind == .regular,
              !requireBytes || info.st_size > 0 else { return nil }
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
            let wd = directory.withCString { inotify_add_watch(fileDescriptor, $0, Self.mask) }
            guard wd >= 0 else {
                failedWatches += 1
                if failedWatches == 1 {
                    logger.warning("library: cannot watch \(directory): \(errnoText(errno)); changes there need polling")
                }
                return true
            }
            if let previous = identities[wd] { watchByIdentity[previous] = nil }
            directories[wd] = directory
            identities[wd] = identity
            watchByIdentity[identity] = wd
            return true
        }
        walk.run(starts)
        return found
    }

    private func forget(_ wd: Int32) {
        directories[wd] = nil
        if let identity = identities.removeValue(forKey: wd) { watchByIdentity[identity] = nil }
    }

    /// Drops the watches of `directory` and everything below it (it moved or vanished).
    private func forgetTree(_ directory: RawPath) {
        for (wd, path) in directories where path.isInside(directory) {
            inotify_rm_watch(fileDescriptor, wd)
            forget(wd)
        }
    }
}
