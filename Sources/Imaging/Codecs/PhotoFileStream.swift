import SystemAccess
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A photo file opened for libjpeg to read as it decodes (its stdio source, a few kilobytes at
/// a time), so a 16 MB JPEG never sits in memory whole next to its decode. Opened with the
/// same checks as `FileReader.read`: a regular file within the size limit.
final class PhotoFileStream {
    let file: UnsafeMutablePointer<FILE>
    let path: RawPath

    init(path: RawPath, maxBytes: Int) throws(ImagingError) {
        let fd = try FileReader.openChecked(path: path, maxBytes: maxBytes)
        // libjpeg reads through stdio: the FILE owns the descriptor from here on.
        guard let file = fdopen(fd.rawValue, "rb") else {
            let code = SystemError.lastErrno
            fd.closeQuietly()
            throw FileReader.error(SystemError("fdopen", path: path.filePath, errno: code))
        }
        self.file = file
        self.path = path
    }

    deinit { fclose(file) }

    /// The first `count` bytes (fewer for a shorter file); reading starts over afterwards.
    func head(_ count: Int) throws(ImagingError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, file) }
        if got < count && ferror(file) != 0 { throw FileReader.error(.ioError, path.description, operation: "fread") }
        rewind(file)
        return Array(bytes[..<got])
    }

    /// The whole file, for decoders that take bytes (PNG).
    func readAll(maxBytes: Int) throws(ImagingError) -> [UInt8] {
        try FileReader.read(path: path, maxBytes: maxBytes)
    }
}
