import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file opened for reading through C stdio. It exists for C libraries that take a `FILE*`
/// (libjpeg's stdio source reads a few kilobytes at a time, so a large file never sits in memory
/// whole): the layers above get this type, never `fdopen`/`fread`, and hand the stream to such a
/// library through `cStreamForDecoder`, the one documented place a `FILE*` leaves the edge.
public final class StdioReadStream {
    private var stream: UnsafeMutablePointer<FILE>?
    /// The path it was opened from, for errors; nil when it adopted a descriptor of unknown origin.
    public let path: FilePath?

    /// Takes ownership of `descriptor` (closed with the stream, or at once when this throws).
    public init(adopting descriptor: FileDescriptor, path: FilePath? = nil) throws(SystemError) {
        guard let stream = fdopen(descriptor.rawValue, "rb") else {
            let code = SystemError.lastErrno
            descriptor.closeQuietly()
            throw SystemError("fdopen", path: path, errno: code)
        }
        self.stream = stream
        self.path = path
    }

    /// Opens `path` read-only (close-on-exec, like every open of the edge).
    public convenience init(path: FilePath) throws(SystemError) {
        try self.init(adopting: FileDescriptor.openFile(path, .readOnly), path: path)
    }

    deinit { close() }

    /// Fills `buffer` from the current position; fewer bytes at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        guard let stream else { throw SystemError("fread", path: path, errno: .badFileDescriptor) }
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let count = fread(base, 1, buffer.count, stream)
        if count < buffer.count && ferror(stream) != 0 {
            throw SystemError("fread", path: path, errno: .ioError)
        }
        return count
    }

    /// Back to the first byte (after a header probe, before a decoder reads from the start).
    public func rewindToStart() {
        if let stream { rewind(stream) }
    }

    /// Closes the stream and its descriptor; later reads fail. Closing twice is harmless.
    public func close() {
        if let stream { fclose(stream) }
        stream = nil
    }

    /// The edge: the C stream for a decoder that reads through stdio (libjpeg's
    /// `jpeg_stdio_src`). Valid only while this object lives and is not closed; the decoder
    /// reads from it but must never close it (this object does).
    public var cStreamForDecoder: UnsafeMutablePointer<FILE> {
        guard let stream else { preconditionFailure("StdioReadStream used after close()") }
        return stream
    }
}
