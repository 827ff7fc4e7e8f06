import SystemAccess

/// A photo file opened for libjpeg to read as it decodes (its stdio source, a few kilobytes at
/// a time), so a 16 MB JPEG never sits in memory whole next to its decode. Opened with the
/// same checks as `FileReader.read`: a regular file within the size limit. The stdio calls are
/// SystemAccess's (`StdioReadStream`).
final class PhotoFileStream {
    let stream: StdioReadStream
    let path: RawPath
    /// The file's size when it was opened.
    let size: Int

    init(path: RawPath, maxBytes: Int) throws(ImagingError) {
        (stream, size) = try Self.open(path, maxBytes: maxBytes)
        self.path = path
    }

    /// The checked open (regular file, within `maxBytes`) as a stdio stream: the stream owns
    /// the descriptor from here on.
    static func open(_ path: RawPath, maxBytes: Int) throws(ImagingError) -> (StdioReadStream, size: Int) {
        let (fd, size) = try FileReader.openChecked(filePath: path.filePath, maxBytes: maxBytes)
        do {
            return (try StdioReadStream(adopting: fd, path: path.filePath), size)
        } catch {
            throw FileReader.error(error)
        }
    }

    /// Throws `tooLarge` when the file is over `maxBytes` (it was opened without a limit to be
    /// sniffed: a clip is not read into memory, so it is not held to the photos' limit).
    func checkSize(maxBytes: Int) throws(ImagingError) {
        if size > maxBytes { throw FileReader.tooLarge(size: size, maxBytes: maxBytes, path: path.filePath) }
    }

    /// The first `count` bytes (fewer for a shorter file); reading starts over afterwards.
    func head(_ count: Int) throws(ImagingError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let result = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemError) in try stream.read(into: buffer) }
        }
        let got: Int
        do {
            got = try result.get()
        } catch {
            throw FileReader.error(error)
        }
        stream.rewindToStart()
        return Array(bytes[..<got])
    }

    /// The whole file, for decoders that take bytes (PNG).
    func readAll(maxBytes: Int) throws(ImagingError) -> [UInt8] {
        try FileReader.read(path: path, maxBytes: maxBytes)
    }
}
