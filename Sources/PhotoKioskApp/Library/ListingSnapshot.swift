import Imaging
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// What a folder looked like just before the scan read its names. Adding, removing or renaming
/// an entry changes the folder's mtime and ctime; ctime also moves when someone sets the mtime
/// back (`touch -d`, `rsync -t`, `cp -p` restore mtimes; nothing in user space restores a ctime).
public struct DirectoryStamp: Hashable, Sendable {
    public var path: RawPath
    public var identity: FileIdentity
    /// Nanoseconds since the epoch.
    public var modified: Int64
    public var changed: Int64
}

// In an extension so that Swift still synthesizes the memberwise initializer.
extension DirectoryStamp {
    init(path: RawPath, status info: Stat) {
        self.init(path: path, identity: info.identity,
                  modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                  changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }
}

/// The library's listing as the last complete scan found it, so that a restart can put the first
/// screenful on screen without listing a large folder again (`ListingSnapshotStore` keeps it and
/// decides whether it still holds).
///
/// The file is blocks, each `length (u32) · checksum (u64, pixelChecksum of the payload) ·
/// payload`, after an 8-byte magic and version; every integer little-endian. The first block is
/// the header (when it was scanned, the roots, every folder's stamp, the file count); file
/// entries follow in blocks of `entriesPerBlock`, in the scan's order, so a reader checks and
/// decodes the first screenful without touching the rest. A file is named by the index of its
/// folder and its own name (bytes), a link by its whole path.
public struct ListingSnapshot: Equatable, Sendable {
    /// When the scan began, nanoseconds since the epoch (CLOCK_REALTIME, the clock file
    /// systems stamp with): folders modified less than `ListingSnapshotStore.timestampSlack`
    /// before it may have changed again within the same timestamp tick.
    public var scannedAt: Int64
    /// The resolved roots the scan walked, in the order given.
    public var roots: [RawPath]
    public var hasCaptureDates: Bool
    public var directories: [DirectoryStamp]
    public var files: [ScannedFile]

    public init(scannedAt: Int64, roots: [RawPath], hasCaptureDates: Bool,
                directories: [DirectoryStamp], files: [ScannedFile]) {
        self.scannedAt = scannedAt
        self.roots = roots
        self.hasCaptureDates = hasCaptureDates
        self.directories = directories
        self.files = files
    }

    static let magic: [UInt8] = Array("PKLS".utf8)
    static let version: UInt32 = 1
    static let entriesPerBlock = 256
    /// Above any real header or block; a length beyond it is damage, refused before allocating.
    static let maxBlockBytes = 64 << 20
    private static let noFolder = UInt32.max

    public func encoded() -> [UInt8] {
        var bytes = Self.magic
        appendLittleEndian(Self.version, to: &bytes)
        var header = SnapshotWriter()
        header.integer(scannedAt)
        header.integer(UInt8(hasCaptureDates ? 1 : 0))
        header.integer(UInt32(roots.count))
        for root in roots { header.bytes(root.bytes) }
        header.integer(UInt32(directories.count))
        var folderIndex: [RawPath: UInt32] = [:]
        for (index, stamp) in directories.enumerated() {
            header.bytes(stamp.path.bytes)
            header.integer(stamp.identity.device)
            header.integer(stamp.identity.inode)
            header.integer(stamp.modified)
            header.integer(stamp.changed)
            if folderIndex[stamp.path] == nil { folderIndex[stamp.path] = UInt32(index) }
        }
        header.integer(UInt32(files.count))
        header.appendBlock(to: &bytes)
        var start = 0
        while start < files.count {
            var block = SnapshotWriter()
            let end = min(files.count, start + Self.entriesPerBlock)
            block.integer(UInt32(end - start))
            for file in files[start..<end] {
                if let folder = folderIndex[file.path.parent], file.path.isInside(file.path.parent) {
                    block.integer(folder)
                    block.bytes(file.path.lastComponent)
                } else {
                    block.integer(Self.noFolder)
                    block.bytes(file.path.bytes)
                }
                block.integer(file.type.rawValue)
                block.integer(file.identity.device)
                block.integer(file.identity.inode)
                block.integer(file.size)
                block.integer(file.modificationSeconds)
                block.integer(file.modificationNanoseconds)
                block.integer(UInt8(file.captureDate == nil ? 0 : 1))
                block.integer(file.captureDate ?? 0)
            }
            block.appendBlock(to: &bytes)
            start = end
        }
        return bytes
    }

    /// Why a snapshot file was refused.
    public struct Damage: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Reads a snapshot's header at once and its file entries block by block.
    public struct Reader {
        private var blocks: SnapshotBlocks
        public private(set) var header: ListingSnapshot
        /// How many file entries the header announces.
        public let fileCount: Int
        public private(set) var filesRead = 0

        /// Checks the magic, the version and the header block (the entries are checked as they
        /// are read). `bytes` may be the file's beginning only: `rest` then gives the whole file
        /// when a block reaches past it (the first screenful is read without the rest).
        public init(_ bytes: [UInt8], rest: (() throws(Damage) -> [UInt8])? = nil) throws(Damage) {
            guard bytes.count >= 8, Array(bytes[0..<4]) == ListingSnapshot.magic else {
                throw Damage(description: "not a listing snapshot")
            }
            var version = SnapshotReader(bytes[4..<8])
            guard try version.integer(UInt32.self) == ListingSnapshot.version else {
                throw Damage(description: "unknown version")
            }
            blocks = SnapshotBlocks(bytes: bytes, offset: 8, rest: rest)
            guard var reader = try blocks.next() else { throw Damage(description: "no header") }
            let scannedAt = try reader.integer(Int64.self)
            let hasCaptureDates = try reader.integer(UInt8.self) != 0
            var roots: [RawPath] = []
            for _ in 0..<(try reader.count()) { roots.append(RawPath(bytes: try reader.byteString())) }
            var directories: [DirectoryStamp] = []
            for _ in 0..<(try reader.count()) {
                let path = RawPath(bytes: try reader.byteString())
                let identity = FileIdentity(device: try reader.integer(UInt64.self), inode: try reader.integer(UInt64.self))
                directories.append(DirectoryStamp(path: path, identity: identity, modified: try reader.integer(Int64.self),
                                                  changed: try reader.integer(Int64.self)))
            }
            fileCount = Int(try reader.integer(UInt32.self))   // in the blocks that follow
            try reader.finish()
            header = ListingSnapshot(scannedAt: scannedAt, roots: roots, hasCaptureDates: hasCaptureDates,
                                     directories: directories, files: [])
        }

        /// The next block of file entries; nil after the last. A missing block is damage.
        public mutating func nextFiles() throws(Damage) -> [ScannedFile]? {
            guard var reader = try blocks.next() else {
                guard filesRead == fileCount else { throw Damage(description: "truncated") }
                return nil
            }
            let count = try reader.count()
            guard count > 0, filesRead + count <= fileCount else { throw Damage(description: "entry count") }
            var files: [ScannedFile] = []
            files.reserveCapacity(count)
            for _ in 0..<count {
                let folder = try reader.integer(UInt32.self)
                let name = try reader.byteString()
                let path: RawPath
                if folder == ListingSnapshot.noFolder {
                    path = RawPath(bytes: name)
                } else {
                    guard Int(folder) < header.directories.count else { throw Damage(description: "folder index") }
                    path = header.directories[Int(folder)].path.appending(name)
                }
                guard let type = PhotoFileType(rawValue: try reader.integer(UInt8.self)) else {
                    throw Damage(description: "file type")
                }
                let identity = FileIdentity(device: try reader.integer(UInt64.self), inode: try reader.integer(UInt64.self))
                let size = try reader.integer(Int64.self)
                let seconds = try reader.integer(Int64.self), nanoseconds = try reader.integer(Int64.self)
                let hasDate = try reader.integer(UInt8.self) != 0
                let date = try reader.integer(Int64.self)
                files.append(ScannedFile(path: path, type: type, identity: identity, size: size,
                                         modificationSeconds: seconds, modificationNanoseconds: nanoseconds,
                                         captureDate: hasDate ? date : nil))
            }
            try reader.finish()
            filesRead += count
            return files
        }
    }

    /// The whole snapshot (tests, small libraries).
    public static func decode(_ bytes: [UInt8]) throws(Damage) -> ListingSnapshot {
        var reader = try Reader(bytes)
        var snapshot = reader.header
        while let files = try reader.nextFiles() { snapshot.files += files }
        return snapshot
    }
}

/// One block's payload being written.
private struct SnapshotWriter {
    var payload: [UInt8] = []

    mutating func integer<T: FixedWidthInteger>(_ value: T) { appendLittleEndian(value, to: &payload) }

    mutating func bytes(_ value: [UInt8]) {
        integer(UInt32(value.count))
        payload += value
    }

    func appendBlock(to bytes: inout [UInt8]) {
        appendLittleEndian(UInt32(payload.count), to: &bytes)
        appendLittleEndian(payload.withUnsafeBytes { pixelChecksum($0) }, to: &bytes)
        bytes += payload
    }
}

/// Walks the blocks of a snapshot file, checking each one's length and checksum.
private struct SnapshotBlocks {
    var bytes: [UInt8]
    var offset: Int
    /// The whole file, when `bytes` is its beginning.
    var rest: (() throws(ListingSnapshot.Damage) -> [UInt8])?

    mutating func next() throws(ListingSnapshot.Damage) -> SnapshotReader? {
        if let rest, offset + 12 > bytes.count || offset + 12 + blockLength() > bytes.count {
            bytes = try rest()
            self.rest = nil
        }
        guard offset < bytes.count else { return nil }
        var prefix = SnapshotReader(bytes[offset...])
        let length = Int(try prefix.integer(UInt32.self))
        let checksum = try prefix.integer(UInt64.self)
        let start = offset + 12
        guard length <= ListingSnapshot.maxBlockBytes, length <= bytes.count - start else {
            throw ListingSnapshot.Damage(description: "truncated")
        }
        let payload = bytes[start..<start + length]
        guard payload.withUnsafeBytes({ pixelChecksum($0) }) == checksum else {
            throw ListingSnapshot.Damage(description: "checksum mismatch")
        }
        offset = start + length
        return SnapshotReader(payload)
    }

    /// The length field of the block at `offset` (known to be within `bytes`).
    private func blockLength() -> Int {
        var field = SnapshotReader(bytes[offset..<offset + 4])
        return Int((try? field.integer(UInt32.self)) ?? 0)
    }
}

/// Reads fields from one block's payload; running past its end is damage.
private struct SnapshotReader {
    let bytes: ArraySlice<UInt8>
    var offset: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        offset = bytes.startIndex
    }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) throws(ListingSnapshot.Damage) -> T {
        let size = MemoryLayout<T>.size
        guard bytes.endIndex - offset >= size else { throw ListingSnapshot.Damage(description: "truncated field") }
        let value = bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset - bytes.startIndex, as: T.self)) }
        offset += size
        return value
    }

    /// A count of things that follow, each at least a byte: more than the bytes left is damage.
    mutating func count() throws(ListingSnapshot.Damage) -> Int {
        let value = Int(try integer(UInt32.self))
        guard value <= bytes.endIndex - offset else { throw ListingSnapshot.Damage(description: "count out of range") }
        return value
    }

    mutating func byteString() throws(ListingSnapshot.Damage) -> [UInt8] {
        let length = Int(try integer(UInt32.self))
        guard length <= bytes.endIndex - offset else { throw ListingSnapshot.Damage(description: "truncated name") }
        defer { offset += length }
        return Array(bytes[offset..<offset + length])
    }

    /// Bytes left over mean the block is not what was written.
    func finish() throws(ListingSnapshot.Damage) {
        guard offset == bytes.endIndex else { throw ListingSnapshot.Damage(description: "trailing bytes") }
    }
}
