import CMemoryFile
import SystemPackage

/// An anonymous file in memory (memfd_create): no name in any folder, gone when the last
/// descriptor to it closes. For bytes a library insists on opening by path (GStreamer's filesrc
/// plays a Motion Photo's embedded MP4 this way): `path` reopens it from this process. Closed
/// when the value is released. Written from one thread at a time (whoever fills it), then only
/// read through `path`.
public final class MemoryFile: @unchecked Sendable {
    /// Written once by init; closed by deinit only.
    private let descriptor: FileDescriptor
    /// How many bytes have been written.
    public private(set) var count: Int64 = 0

    /// `name` shows in /proc/self/fd's link target only ("memfd:name"), for someone debugging.
    public init(name: String) throws(SystemError) {
        let fd = cmemory_file_create(name)
        guard fd >= 0 else { throw SystemError("memfd_create", errno: SystemError.lastErrno) }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { descriptor.closeQuietly() }

    /// /proc/self/fd/N: opening it opens this file (a new open file description, its own offset),
    /// in this process only.
    public var path: FilePath { FilePath("/proc/self/fd/\(descriptor.rawValue)") }

    /// Appends `bytes`.
    public func append(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        do {
            try descriptor.writeAll(from: bytes)
        } catch {
            throw SystemError("write", errno: error)
        }
        count += Int64(bytes.count)
    }

    /// Appends `length` bytes of the file at `source` from `offset`, through a buffer of at most
    /// a megabyte; fails when the source ends first.
    public func append(from source: FilePath, offset: Int64, length: Int64) throws(SystemError) {
        let file = try FileDescriptor.openFile(source, .readOnly)
        defer { file.closeQuietly() }
        let chunk = Int(min(length, 1 << 20))
        guard chunk > 0 else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var done: Int64 = 0
        while done < length {
            let want = Int(min(Int64(chunk), length - done))
            let got: Int
            do {
                got = try file.read(fromAbsoluteOffset: offset + done, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want]))
            } catch {
                throw SystemError("pread", path: source, errno: Errno(error))
            }
            guard got > 0 else { throw SystemError("pread", path: source, errno: .ioError) }
            try append(UnsafeRawBufferPointer(rebasing: buffer[..<got]))
            done += Int64(got)
        }
    }
}
