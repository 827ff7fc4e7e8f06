import Imaging
#if canImport(Glibc)
import Glibc
#endif

/// The kind of a directory entry, from `d_type` when the file system provides it (no stat).
enum EntryKind {
    case directory, regular, symlink, other, unknown
}

/// An open directory: its identity and its entries, read in one go and sorted by bytes so
/// scans are deterministic. Files are stat'ed relative to the open directory (`fstatat`), which
/// is cheaper than full paths and immune to the path changing mid-scan.
struct DirectoryReader: ~Copyable {
    let fd: Int32
    let identity: FileIdentity
    private(set) var entries: [(name: [UInt8], kind: EntryKind)] = []

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

    /// Reads every entry except "." and "..". Needs its own descriptor: closedir closes the one
    /// fdopendir was given.
    mutating func readEntries() throws(PosixError) {
        let listFD = dup(fd)
        guard listFD >= 0 else { throw PosixError(errno) }
        guard let dir = fdopendir(listFD) else {
            let code = errno
            close(listFD)
            throw PosixError(code)
        }
        defer { closedir(dir) }
        var result: [(name: [UInt8], kind: EntryKind)] = []
        errno = 0
        while let entry = readdir(dir) {
            let name = direntName(entry)
            if name == [46] || name == [46, 46] { continue }
            let kind: EntryKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_REG): kind = .regular
            case Int32(DT_LNK): kind = .symlink
            case Int32(DT_UNKNOWN): kind = .unknown
            default: kind = .other
            }
            result.append((name, kind))
        }
        if errno != 0 { throw PosixError(errno) }
        result.sort { $0.name.lexicographicallyPrecedes($1.name) }
        entries = result
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
