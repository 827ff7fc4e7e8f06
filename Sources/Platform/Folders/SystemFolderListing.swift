import Glibc
import SystemAccess
import SystemPackage

/// The kernel's `FolderListing`: open(O_DIRECTORY), readdir through fdopendir, fstatat.
public struct SystemFolderListing: FolderListing {
    public init() {}

    public func openFolder(_ path: [UInt8]) throws(SystemError) -> any OpenFolder {
        try SystemOpenFolder(path: FilePath(bytes: path))
    }

    public func status(of path: [UInt8], followingLinks: Bool) throws(SystemError) -> Stat {
        try FileSystemCalls.status(FilePath(bytes: path), followingLinks: followingLinks)
    }
}

final class SystemOpenFolder: OpenFolder {
    private let descriptor: FileDescriptor
    private let path: FilePath
    let status: Stat

    init(path: FilePath) throws(SystemError) {
        descriptor = try FileDescriptor.openFile(path, .readOnly, options: [.directory])
        self.path = path
        do {
            status = try descriptor.stat()
        } catch {
            descriptor.closeQuietly()
            throw SystemError("fstat", path: path, errno: error)
        }
    }

    deinit { descriptor.closeQuietly() }

    func forEachEntry(_ body: (UnsafeRawBufferPointer, FolderEntryKind) -> Void) throws(SystemError) {
        // closedir closes the descriptor fdopendir was given, so the stream gets its own.
        let listing = dup(descriptor.rawValue)
        guard listing >= 0 else { throw SystemError("dup", path: path, errno: SystemError.lastErrno) }
        guard let stream = fdopendir(listing) else {
            let code = SystemError.lastErrno
            close(listing)
            throw SystemError("fdopendir", path: path, errno: code)
        }
        defer { closedir(stream) }
        errno = 0
        while let entry = readdir(stream) {
            let name = direntNameBytes(entry)
            if !name.isEmpty && name.count <= 2 && name.allSatisfy({ $0 == 0x2E }) { continue }   // "." and ".."
            let kind: FolderEntryKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .folder
            case Int32(DT_REG): kind = .regular
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_UNKNOWN): kind = .unknown
            default: kind = .other
            }
            body(name, kind)
            errno = 0   // the body may stat, which sets errno; readdir's end of stream must not see it
        }
        if errno != 0 { throw SystemError("readdir", path: path, errno: SystemError.lastErrno) }
    }

    func status(ofEntry name: some Collection<UInt8>) throws(SystemError) -> Stat {
        let result: Result<Stat, Errno> = PathBytes.withCString(name) { cName in
            do throws(Errno) {
                return .success(try Stat(cName, relativeTo: descriptor, flags: .symlinkNoFollow))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let status): return status
        case .failure(let code): throw SystemError("fstatat", path: FilePath(bytes: path.bytes + [0x2F] + name), errno: code)
        }
    }
}
