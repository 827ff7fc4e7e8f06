import SystemAccess
#if canImport(Glibc)
import Glibc
#endif

/// A file-system path as the kernel sees it: bytes, not necessarily UTF-8.
///
/// Linux file names are arbitrary bytes (a camera card written by another OS can hold Latin-1
/// names); a `String` would silently replace those bytes and the file could not be opened again.
public struct RawPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public init(_ string: String) {
        self.bytes = Array(string.utf8)
    }

    /// Hashes the bytes in one block: an array of bytes would otherwise be hashed element by
    /// element, and paths are hashed on every cache and queue lookup.
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public static func == (a: RawPath, b: RawPath) -> Bool { a.bytes == b.bytes }

    /// The path with `component` appended after a single `/`.
    public func appending(_ component: [UInt8]) -> RawPath {
        var result = bytes
        if result.last != UInt8(ascii: "/") { result.append(UInt8(ascii: "/")) }
        result.append(contentsOf: component)
        return RawPath(bytes: result)
    }

    public func appending(_ component: String) -> RawPath {
        appending(Array(component.utf8))
    }

    /// The last path component (the file name).
    public var lastComponent: [UInt8] {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return bytes }
        return Array(bytes[(slash + 1)...])
    }

    /// The path without its last component.
    public var parent: RawPath {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return RawPath(".") }
        return slash == 0 ? RawPath("/") : RawPath(bytes: Array(bytes[..<slash]))
    }

    /// True when `self` is `directory` itself or lies below it.
    public func isInside(_ directory: RawPath) -> Bool {
        let dir = directory.bytes.last == UInt8(ascii: "/") && directory.bytes.count > 1
            ? Array(directory.bytes.dropLast()) : directory.bytes
        if bytes == dir { return true }
        if dir == [UInt8(ascii: "/")] { return bytes.first == UInt8(ascii: "/") }
        guard bytes.count > dir.count, bytes[dir.count] == UInt8(ascii: "/") else { return false }
        return bytes.starts(with: dir)
    }

    /// Calls `body` with a NUL-terminated copy of the path for a C function.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { buffer in
            let count = buffer.count
            let temp = UnsafeMutablePointer<CChar>.allocate(capacity: count + 1)
            defer { temp.deallocate() }
            if count > 0 {
                UnsafeMutableRawPointer(temp).copyMemory(from: buffer.baseAddress!, byteCount: count)
            }
            temp[count] = 0
            return try body(temp)
        }
    }

    /// The canonical absolute path with every link resolved, or nil when it does not exist.
    /// The corresponding C function is `realpath`.
    public func resolved() -> RawPath? {
        FileSystemCalls.resolved(filePath).map { RawPath(bytes: $0.bytes) }
    }

    /// Copies a NUL-terminated C string.
    public init(cString: UnsafePointer<CChar>) {
        let length = strlen(cString)
        self.bytes = cString.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// Readable text for logs; bytes that are not UTF-8 show as U+FFFD.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// Byte order, for deterministic traversal; use `NaturalOrder` for what people see.
    public static func < (a: RawPath, b: RawPath) -> Bool {
        a.bytes.lexicographicallyPrecedes(b.bytes)
    }
}

extension RawPath: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self.init(value) }
}
