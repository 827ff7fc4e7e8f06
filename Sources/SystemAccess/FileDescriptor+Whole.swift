import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Whole reads and writes on swift-system's `FileDescriptor`: every call retries EINTR (its
/// `retryOnInterrupt` default) and these loop over short counts, so no caller writes either loop.
extension FileDescriptor {
    /// Opens `path`, failing with the path in the error. Close-on-exec always: a descriptor
    /// must not leak into a child process.
    public static func openFile(_ path: FilePath, _ mode: AccessMode, options: OpenOptions = [],
                            permissions: FilePermissions? = nil) throws(SystemError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(path, mode, options: options.union(.closeOnExec),
                                           permissions: permissions)
        } catch {
            throw SystemError("open", path: path, errno: Errno(error))
        }
    }

    /// Reads until `buffer` is full or the file ends; returns how many bytes came.
    public func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        var done = 0
        while done < buffer.count {
            let count: Int
            do {
                count = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
            } catch {
                throw Errno(error)
            }
            if count == 0 { break }
            done += count
        }
        return done
    }

    /// Reads exactly `buffer.count` bytes; false when the file ends first.
    public func readExactly(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Bool {
        try readFully(into: buffer) == buffer.count
    }

    /// The rest of the file; nil when it holds more than `limit` bytes.
    public func readToEnd(limit: Int) throws(Errno) -> [UInt8]? {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { chunk.deallocate() }
        while bytes.count <= limit {
            let count = try readFully(into: chunk)
            bytes.append(contentsOf: chunk[0..<count])
            if count < chunk.count { return bytes.count <= limit ? bytes : nil }
        }
        return nil
    }

    /// Writes every byte of `bytes` (retrying short writes); a write that makes no progress
    /// reports ENOSPC.
    public func writeAll(from bytes: UnsafeRawBufferPointer) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let count: Int
            do {
                count = try write(UnsafeRawBufferPointer(rebasing: bytes[done...]))
            } catch {
                throw Errno(error)
            }
            guard count > 0 else { throw Errno.noSpace }
            done += count
        }
    }

    /// Writes every byte of `bytes`.
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        let failure: Errno? = bytes.withUnsafeBytes { buffer in
            do throws(Errno) { try writeAll(from: buffer) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Fills `bytes` from the file, stopping early at its end; returns how many bytes came.
    public func readFully(into bytes: inout [UInt8]) throws(Errno) -> Int {
        let result: Result<Int, Errno> = bytes.withUnsafeMutableBytes { buffer in
            do throws(Errno) { return .success(try readFully(into: buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Flushes the file's data and metadata to the device (`fsync`).
    public func sync() throws(Errno) {
        guard fsync(rawValue) == 0 else { throw SystemError.lastErrno }
    }

    /// Sets the file's modification time to now (`futimens`).
    public func touch() throws(Errno) {
        guard futimens(rawValue, nil) == 0 else { throw SystemError.lastErrno }
    }

    /// Closes the descriptor, reporting a failure (a write-back error can surface only here).
    public func closeChecked() throws(Errno) {
        do { try close() } catch { throw Errno(error) }
    }

    /// Closes the descriptor where a failure cannot be acted on (after a read, or on an error
    /// path that already reports the first failure).
    public func closeQuietly() {
        _ = try? close()
    }
}
