import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Paths travel as bytes (Linux names are not necessarily UTF-8); these turn them into what the
/// kernel and swift-system take without going through a String.
public enum PathBytes {
    /// Calls `body` with a NUL-terminated copy of `bytes`.
    public static func withCString<R, E: Error>(_ bytes: some Collection<UInt8>,
                                                _ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
        let count = bytes.count
        let temporary = UnsafeMutableBufferPointer<CChar>.allocate(capacity: count + 1)
        defer { temporary.deallocate() }
        _ = UnsafeMutableRawBufferPointer(temporary).copyBytes(from: bytes)
        temporary[count] = 0
        return try body(UnsafePointer(temporary.baseAddress!))
    }
}

extension FilePath {
    /// The path whose bytes are `bytes` (no NUL inside).
    public init(bytes: some Collection<UInt8>) {
        self = PathBytes.withCString(bytes) { FilePath(platformString: $0) }
    }

    /// The path's bytes, without the terminating NUL.
    public var bytes: [UInt8] {
        withPlatformString { cString in
            Array(UnsafeRawBufferPointer(start: cString, count: strlen(cString)))
        }
    }
}
