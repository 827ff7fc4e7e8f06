import Imaging
import Platform
import SystemAccess
import SystemPackage

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
/// Files are stat'ed relative to the open directory (Platform's `OpenFolder`), which is cheaper
/// than full paths and immune to the path changing mid-scan.
struct DirectoryReader: ~Copyable {
    private let folder: any OpenFolder
    let identity: FileIdentity
    /// The folder's own status, taken before its entries are read (what a listing snapshot
    /// records: a change after this shows as a newer mtime and ctime).
    var status: Stat { folder.status }
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

    /// Opens `path` through `listing`. Follows a final symlink (callers decide about links).
    init(path: RawPath, listing: any FolderListing) throws(SystemError) {
        // Opened before any stored property is set: a throw from a half-initialised
        // noncopyable value crashes Debian 13's Swift 6.0.3 ("SIL memory lifetime failure"),
        // the compiler of the arm64 package (scripts/arm64-buildroot.sh).
        self.init(folder: try listing.openFolder(path.bytes))
    }

    private init(folder: any OpenFolder) {
        self.folder = folder
        identity = folder.status.identity
    }

    /// Reads every entry except "." and "..", and orders the first `orderedPrefix` of them (nil:
    /// no order at all, for walks that only look for folders). Entries without a `d_type`
    /// (some network and FUSE file systems) are stat'ed here; ones that vanished are left out.
    mutating func readEntries(orderedPrefix: Int? = .max) throws(SystemError) {
        var names: [UInt8] = []
        var slots: [Slot] = []
        let folder = self.folder
        try folder.forEachEntry { name, entryKind in
            var kind: EntryKind
            switch entryKind {
            case .folder: kind = .directory
            case .regular: kind = .regular
            case .symbolicLink: kind = .symlink
            case .other: kind = .other
            case .unknown:
                guard let info = try? folder.status(ofEntry: name) else { return }
                kind = info.kind
            }
            let offset = names.count
            names.append(contentsOf: name)
            if kind == .directory { names.append(UInt8(ascii: "/")) }
            slots.append(Slot(start: Int32(offset), keyLength: Int32(names.count - offset), kind: kind))
        }
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
    func status(of name: [UInt8]) throws(SystemError) -> Stat {
        try folder.status(ofEntry: name)
    }
}

extension Stat {
    var kind: EntryKind {
        switch type {
        case .directory: return .directory
        case .regular: return .regular
        case .symbolicLink: return .symlink
        default: return .other
        }
    }

    var identity: FileIdentity { FileIdentity(device: UInt64(deviceID.rawValue), inode: UInt64(inode.rawValue)) }
}

extension ScannedFile {
    init(path: RawPath, type: PhotoFileType, status info: Stat, captureDate: Int64?) {
        self.init(path: path, type: type, identity: info.identity, size: info.size,
                  modificationSeconds: Int64(info.st_mtim.tv_sec),
                  modificationNanoseconds: Int64(info.st_mtim.tv_nsec), captureDate: captureDate)
    }
}
