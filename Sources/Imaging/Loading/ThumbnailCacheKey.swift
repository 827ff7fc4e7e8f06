import SystemAccess
#if canImport(Glibc)
import Glibc
#endif

/// What makes a cached thumbnail valid: the file's path, the thumbnail size, and the file's
/// modification time and size. Editing or replacing the photo changes the key, so stale
/// thumbnails are simply never found again (and age out).
public struct ThumbnailCacheKey: Hashable, Sendable {
    public var path: RawPath
    public var edge: Int
    public var modificationSeconds: Int64
    public var modificationNanoseconds: Int64
    public var fileSize: Int64
}

// In an extension so that Swift still synthesizes the memberwise initializer.
extension ThumbnailCacheKey {
    /// The key for the file as it is on disk now, or nil if it cannot be stat'ed.
    public init?(path: RawPath, edge: Int) {
        guard let info = try? FileSystemCalls.status(path.filePath) else { return nil }
        self.init(path: path, edge: edge, modificationSeconds: Int64(info.st_mtim.tv_sec),
                  modificationNanoseconds: Int64(info.st_mtim.tv_nsec), fileSize: info.size)
    }

    /// The key's bytes as stored in the cache file and hashed into its name.
    var serialized: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.bytes.count + 36)
        appendLittleEndian(UInt32(path.bytes.count), to: &bytes)
        bytes += path.bytes
        for value in [Int64(edge), modificationSeconds, modificationNanoseconds, fileSize] {
            appendLittleEndian(UInt64(bitPattern: value), to: &bytes)
        }
        return bytes
    }

    /// 32 hex digits (two differently seeded FNV-1a hashes) plus the entry suffix.
    var fileName: String {
        let bytes = serialized
        var first = FNV1a64()
        first.combine(bytes)
        var second = FNV1a64(basis: 0x8422_2325_CBF2_9CE4)
        second.combine(bytes.reversed())
        return hexDigits(first.value) + hexDigits(second.value) + ThumbnailFile.suffix
    }
}

public func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
}
