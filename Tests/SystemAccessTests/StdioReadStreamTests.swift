import TestSupport
import Glibc
import SystemAccess
import SystemPackage
import Testing

@Suite("SystemAccess: the stdio stream C decoders read from")
struct StdioReadStreamTests {
    let scratch = ScratchDirectory()

    func file(_ bytes: [UInt8]) throws -> FilePath {
        let path = FilePath(scratch.newFolder("stdio") + "/data")
        try AtomicFile.write(bytes, to: path.description)
        return path
    }

    func read(_ stream: StdioReadStream, _ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try bytes.withUnsafeMutableBytes { try stream.read(into: $0) }
        return Array(bytes[..<got])
    }

    @Test("reads in pieces, stops short at the end, and starts over after a rewind")
    func readsAndRewinds() throws {
        let stream = try StdioReadStream(path: file(Array(0..<100)))
        #expect(try read(stream, 60) == Array(0..<60))
        #expect(try read(stream, 60) == Array(60..<100))
        #expect(try read(stream, 10) == [])
        stream.rewindToStart()
        #expect(try read(stream, 3) == [0, 1, 2])
    }

    @Test("an adopted descriptor is read from; after close() reads fail")
    func adoptsDescriptor() throws {
        let path = try file([9, 8, 7])
        let descriptor = try FileDescriptor.openFile(path, .readOnly)
        let stream = try StdioReadStream(adopting: descriptor, path: path)
        #expect(try read(stream, 8) == [9, 8, 7])
        stream.close()
        #expect(throws: SystemError("fread", path: path, errno: .badFileDescriptor)) { try read(stream, 1) }
    }

    @Test("the C stream a decoder reads from is the same position as the stream's own reads")
    func cStreamIsShared() throws {
        let stream = try StdioReadStream(path: file([1, 2, 3, 4]))
        #expect(try read(stream, 1) == [1])
        #expect(fgetc(stream.cStreamForDecoder) == 2)
    }

    @Test("a missing file fails with open, the path and ENOENT")
    func missingFile() throws {
        let path = FilePath(scratch.newFolder("stdio") + "/absent")
        #expect(throws: SystemError("open", path: path, errno: .noSuchFileOrDirectory)) { try StdioReadStream(path: path) }
    }
}
