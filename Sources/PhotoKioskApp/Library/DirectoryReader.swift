import Imaging
#if canImport(Glibc)
import Glibc
#endif

/// The kind of a directory entry, from `d_type` when the file system provides it (no stat).
enum EntryKind {
    case directory, regular, symlink, other, unknown
}

/// One name in a directory listing.
struct DirectoryEntry {
    let kind: EntryKind
    /// What the entry sorts by: its name, with a "/" after a folder's, so that within a folder
    /// files and subfolders interleave exactly as their full paths do in `NaturalOrder` (the
    /// photo list's name order): "a/x.jpg" before "a b.jpg", "x9/…" before "x10.jpg". The one
    /// array an entry holds: sorting 100,000 of them moves half the references two would.
    let sortKey: [UInt8]

    init(name: [UInt8], kind: EntryKind) {
        self.kind = kind
        sortKey = kind == .directory ? name + [UInt8(ascii: "/")] : name
    }

    var name: [UInt8] { kind == .directory ? Array(sortKey.dropLast()) : sortKey }

    static func precedes(_ a: DirectoryEntry, _ b: DirectoryEntry) -> Bool {
        NaturalOrder.compare(a.sortKey, b.sortKey) < 0
    }
}

/// An open directory: its identity and its entries, read in one go. Entries come out in name
/// order (`DirectoryEntry.sortKey`), so a walk meets photos in the order the list shows them;
/// only the first few are ordered up front, the rest when the walk gets to them. Files are
/// stat'ed relative to the open directory (`fstatat`), which is cheaper than full paths and
/// immune to the path changing mid-scan.
struct DirectoryReader: ~Copyable {
    let fd: Int32
    let identity: FileIdentity
    private(set) var entries: [DirectoryEntry] = []
    /// How many leading entries are in order.
    private var orderedCount = 0

    /// Opens `path`, failing with errno. Follows a final symlink (callers decide about links).
    init(path: RawPath) throws(PosixError) {
        let fd = path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw PosixError(errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw PosixError(code)
        }
        self.fd = fd
        self.identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    deinit { close(fd) }

    /// Reads every entry except "." and "..", and orders the first `orderedPrefix` of them (nil:
    /// no order at all, for walks that only look for folders). Entries without a `d_type`
    /// (some network and FUSE file systems) are stat'ed here; ones that vanished are left out.
    /// Needs its own descriptor: closedir closes the one fdopendir was given.
    mutating func readEntries(orderedPrefix: Int? = .max) throws(PosixError) {
        let listFD = dup(fd)
        guard listFD >= 0 else { throw PosixError(errno) }
        guard let dir = fdopendir(listFD) else {
            let code = errno
            close(listFD)
            throw PosixError(code)
        }
        defer { closedir(dir) }
        var result: [DirectoryEntry] = []
        errno = 0
        while let entry = readdir(dir) {
            let name = direntName(entry)
            if name == [46] || name == [46, 46] { continue }
            var kind: EntryKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_REG): kind = .regular
            case Int32(DT_LNK): kind = .symlink
            case Int32(DT_UNKNOWN): kind = .unknown
            default: kind = .other
            }
            if kind == .unknown {
                guard let info = try? status(of: name) else { errno = 0; continue }
                kind = info.kind
            }
            result.append(DirectoryEntry(name: name, kind: kind))
        }
        if errno != 0 { throw PosixError(errno) }
        if let orderedPrefix {
            orderedCount = result.orderPrefix(orderedPrefix, by: DirectoryEntry.precedes)
        } else {
            orderedCount = result.count
        }
        entries = result
    }

    /// Whether `entry(at: index)` returns at once (false: it orders the rest of the listing first).
    func isOrdered(at index: Int) -> Bool { index < orderedCount || index >= entries.count }

    /// The entry at `index` in order (ordering the rest of the listing the first time it is
    /// reached), nil past the end.
    mutating func entry(at index: Int) -> DirectoryEntry? {
        guard index < entries.count else { return nil }
        if index >= orderedCount {
            entries[orderedCount...].sort(by: DirectoryEntry.precedes)
            orderedCount = entries.count
        }
        return entries[index]
    }

    /// lstat of an entry (the link itself, not its target).
    func status(of name: [UInt8]) throws(PosixError) -> stat {
        var info = stat()
        let result = RawPath(bytes: name).withCString { fstatat(fd, $0, &info, AT_SYMLINK_NOFOLLOW) }
        guard result == 0 else { throw PosixError(errno) }
        return info
    }
}

/// An errno as a Swift error.
struct PosixError: Error {
    let code: Int32
    init(_ code: Int32) { self.code = code }
}

func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }

extension stat {
    var kind: EntryKind {
        switch st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .regular
        case S_IFLNK: return .symlink
        default: return .other
        }
    }

    var identity: FileIdentity { FileIdentity(device: UInt64(st_dev), inode: UInt64(st_ino)) }
}

extension ScannedFile {
    init(path: RawPath, type: PhotoFileType, status info: stat, captureDate: Int64?) {
        self.init(path: path, type: type, identity: info.identity, size: Int64(info.st_size),
                  modificationSeconds: Int64(info.st_mtim.tv_sec),
                  modificationNanoseconds: Int64(info.st_mtim.tv_nsec), captureDate: captureDate)
    }
}

/// The name of a directory entry from readdir. Read up to its NUL only: glibc sizes each entry
/// to its name, so copying the whole 256-byte `d_name` reads past the buffer (AddressSanitizer).
func direntName(_ entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
    let start = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    return Array(UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self))))
}
