import SystemAccess
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
    let name: [UInt8]
    let kind: EntryKind
}

/// An open directory: its identity and its entries, read in one go. Entries come out in name
/// order, so a walk meets photos in the order the list shows them: a folder sorts as its name
/// with a "/" after it, so that files and subfolders interleave exactly as their full paths do
/// in `NaturalOrder` ("a/x.jpg" before "a b.jpg", "x9/…" before "x10.jpg"). Only the first few
/// entries are ordered up front, the rest when the walk gets to them.
///
/// The names live back to back in one buffer and the entries being ordered are plain offsets:
/// listing and ordering 100,000 names allocates no array per name and moves no references.
/// Files are stat'ed relative to the open directory (`fstatat`), which is cheaper than full
/// paths and immune to the path changing mid-scan.
struct DirectoryReader: ~Copyable {
    let fd: Int32
    let identity: FileIdentity
    /// The folder's own status, taken before its entries are read (what a listing snapshot
    /// records: a change after this shows as a newer mtime and ctime).
    let status: stat
    /// Every name, each followed by "/" when it is a folder's.
    private var names: [UInt8] = []
    private var slots: [Slot] = []
    /// How many leading slots are in order.
    private var orderedCount = 0

    /// Where a name (and its sort key) is in `names`.
    private struct Slot {
        var start: Int32
        var keyLength: Int32
        var kind: EntryKind
        var nameLength: Int { Int(keyLength) - (kind == .directory ? 1 : 0) }
    }

    var entryCount: Int { slots.count }

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
        self.status = info
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
        var names: [UInt8] = []
        var slots: [Slot] = []
        errno = 0
        while let entry = readdir(dir) {
            let name = direntNameBytes(entry)
            if name.count <= 2 && name.allSatisfy({ $0 == 46 }) && !name.isEmpty { continue }   // "." and ".."
            var kind: EntryKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_REG): kind = .regular
            case Int32(DT_LNK): kind = .symlink
            case Int32(DT_UNKNOWN): kind = .unknown
            default: kind = .other
            }
            if kind == .unknown {
                guard let info = try? status(of: Array(name)) else { errno = 0; continue }
                kind = info.kind
            }
            let offset = names.count
            names.append(contentsOf: name)
            if kind == .directory { names.append(UInt8(ascii: "/")) }
            slots.append(Slot(start: Int32(offset), keyLength: Int32(names.count - offset), kind: kind))
        }
        if errno != 0 { throw PosixError(errno) }
        if let orderedPrefix {
            orderedCount = names.withUnsafeBufferPointer { buffer in
                slots.orderPrefix(orderedPrefix) { Self.precedes($0, $1, in: buffer) }
            }
        } else {
            orderedCount = slots.count
        }
        self.names = names
        self.slots = slots
    }

    private static func precedes(_ a: Slot, _ b: Slot, in names: UnsafeBufferPointer<UInt8>) -> Bool {
        let keyA = UnsafeBufferPointer(rebasing: names[Int(a.start)..<Int(a.start) + Int(a.keyLength)])
        let keyB = UnsafeBufferPointer(rebasing: names[Int(b.start)..<Int(b.start) + Int(b.keyLength)])
        return NaturalOrder.compare(keyA, keyB) < 0
    }

    /// Whether `entry(at: index)` returns at once (false: it orders the rest of the listing first).
    func isOrdered(at index: Int) -> Bool { index < orderedCount || index >= slots.count }

    /// The entry at `index` in order (ordering the rest of the listing the first time it is
    /// reached), nil past the end.
    mutating func entry(at index: Int) -> DirectoryEntry? {
        guard index < slots.count else { return nil }
        if index >= orderedCount {
            let names = self.names
            names.withUnsafeBufferPointer { buffer in
                slots[orderedCount...].sort { Self.precedes($0, $1, in: buffer) }
            }
            orderedCount = slots.count
        }
        let slot = slots[index]
        let start = Int(slot.start)
        return DirectoryEntry(name: Array(names[start..<start + slot.nameLength]), kind: slot.kind)
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
