import TestSupport
import Glibc
import SystemAccess
import SystemPackage
import Testing

@Suite("SystemAccess: typed system calls")
struct SystemAccessTests {
    let scratch = ScratchDirectory()

    /// A new empty folder, removed after the test.
    func scratchFolder() -> [UInt8] { Array(scratch.newFolder("systemaccess").utf8) }

    @Test("a name that is not UTF-8 is written, listed and read back byte for byte")
    func nonUTF8Name() throws {
        let folder = scratchFolder()
        let name: [UInt8] = [0x66, 0xE9, 0xFF, 0x2E, 0x6A, 0x70, 0x67]   // "f\xE9\xFF.jpg" (Latin-1, invalid UTF-8)
        let path = FilePath(bytes: folder + [0x2F] + name)
        #expect(path.bytes == folder + [0x2F] + name)
        let file = try FileDescriptor.openFile(path, .writeOnly, options: [.create, .exclusiveCreate],
                                               permissions: .ownerReadWrite)
        try file.writeAll(Array(0..<200).map { UInt8($0) })
        try file.closeChecked()
        #expect(try FileSystemCalls.contents(of: path, limit: 1000) == Array(0..<200).map { UInt8($0) })
        let listed = PathBytes.withCString(folder) { entryNames(inDirectory: $0) }
        #expect(listed == [name])
    }

    @Test("readToEnd keeps a file of exactly the limit and refuses one byte more")
    func readLimit() throws {
        let path = FilePath(bytes: scratchFolder() + Array("/data".utf8))
        try AtomicFile.write([UInt8](repeating: 7, count: 5000), to: path.description)
        #expect(try FileSystemCalls.contents(of: path, limit: 5000).count == 5000)
        #expect(throws: SystemError("read", path: path, errno: .fileTooLarge)) {
            try FileSystemCalls.contents(of: path, limit: 4999)
        }
    }

    @Test("a failed call names the call, the errno and the path")
    func errorCarriesPath() {
        let path = FilePath(bytes: scratchFolder() + Array("/missing.jpg".utf8))
        do {
            _ = try FileDescriptor.openFile(path, .readOnly)
            Issue.record("opening a missing file succeeded")
        } catch {
            #expect(error.errno == .noSuchFileOrDirectory)
            #expect(error.path == path)
            #expect(error.description == "open \(path): No such file or directory")
        }
    }

    @Test("makeDirectories makes every missing parent and refuses a file in the way")
    func makeDirectories() throws {
        let folder = scratchFolder()
        let deep = FilePath(bytes: folder + Array("/a/b/c".utf8))
        try FileSystemCalls.makeDirectories(deep, permissions: .ownerReadWriteExecute)
        #expect(try FileSystemCalls.status(deep).type == .directory)
        try FileSystemCalls.makeDirectories(deep, permissions: .ownerReadWriteExecute)   // already there: fine
        let file = FilePath(bytes: folder + Array("/file".utf8))
        try AtomicFile.write([1], to: file.description)
        #expect(throws: SystemError.self) {
            try FileSystemCalls.makeDirectories(FilePath(bytes: folder + Array("/file/below".utf8)),
                                                permissions: .ownerReadWriteExecute)
        }
    }

    @Test("AtomicFile.remove removes once, then reports nothing to remove")
    func remove() throws {
        let path = String(decoding: scratchFolder(), as: UTF8.self) + "/order"
        try AtomicFile.write(Array("x".utf8), to: path)
        #expect(AtomicFile.read(path) == Array("x".utf8))
        #expect(AtomicFile.remove(path))
        #expect(!FileSystemCalls.exists(FilePath(path)))
        #expect(!AtomicFile.remove(path))
    }
}
