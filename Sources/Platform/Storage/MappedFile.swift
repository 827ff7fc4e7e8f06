import Glibc
import SystemAccess
import SystemPackage

/// A whole file mapped read-only: its pages are read from disk only when touched, and count as
/// page cache (reclaimable), not as the program's own memory. For data tables shipped with the
/// program (the overlay's place table), which a lookup reads a few pages of.
public final class MappedFile: @unchecked Sendable {
    public let path: String
    public let count: Int
    private let base: UnsafeRawPointer?

    /// Maps `path`; throws when it cannot be opened, read or mapped. `randomAccess`: reads touch
    /// scattered pages, so the kernel reads only those instead of reading ahead around each.
    public init(path: String, randomAccess: Bool = false) throws(PlatformError) {
        self.path = path
        let filePath = FilePath(path)
        let file: FileDescriptor
        do { file = try .openFile(filePath, .readOnly) } catch { throw .system(error) }
        defer { file.closeQuietly() }
        let status: Stat
        do { status = try file.stat() } catch { throw .system(SystemError("fstat", path: filePath, errno: Errno(error))) }
        guard status.type == .regular else {
            throw .system(SystemError("map (not a regular file)", path: filePath, errno: .invalidArgument))
        }
        count = Int(status.size)
        guard count > 0 else {
            base = nil
            return
        }
        guard let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, file.rawValue, 0), mapped != MAP_FAILED else {
            throw .system(SystemError("mmap", path: filePath, errno: SystemError.lastErrno))
        }
        if randomAccess { madvise(mapped, count, MADV_RANDOM) }
        base = UnsafeRawPointer(mapped)
    }

    deinit {
        if let base { munmap(UnsafeMutableRawPointer(mutating: base), count) }
    }

    /// The file's bytes, valid during `body` (the mapping lives as long as this object).
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }
}
