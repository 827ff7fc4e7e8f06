import SystemAccess
import SystemPackage
import Testing
import TestSupport

@Suite("SystemAccess: MemoryFile (memfd_create)")
struct MemoryFileTests {
    let scratch = ScratchDirectory()

    func contents(_ path: FilePath) throws -> [UInt8]? {
        let file = try FileDescriptor.openFile(path, .readOnly)
        defer { file.closeQuietly() }
        return try file.readToEnd(limit: 1 << 20)
    }

    @Test("bytes appended, and a range of another file, read back through its /proc path")
    func appendAndReopen() throws {
        let memory = try MemoryFile(name: "test")
        #expect(memory.path.string.hasPrefix("/proc/self/fd/"))
        #expect(try contents(memory.path) == [])
        try [UInt8]([1, 2, 3]).withUnsafeBytes { try memory.append($0) }
        let source = scratch.path.appending("source")
        let sourceBytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        writeFile(source, sourceBytes)
        // More than the copy's one-megabyte buffer, from an odd offset.
        try memory.append(from: FilePath(source.description), offset: 12_345, length: 2_500_000)
        #expect(memory.count == 2_500_003)
        let got = try #require(try FileDescriptor.openFile(memory.path, .readOnly).readToEnd(limit: 4 << 20))
        #expect(got.count == 2_500_003)
        #expect(Array(got.prefix(3)) == [1, 2, 3])
        let copied = Array(got.dropFirst(3)) == Array(sourceBytes[12_345..<(12_345 + 2_500_000)])   // a Bool: no megabytes in a failure
        #expect(copied, "the range copied is the source's bytes")
        // A range past the source's end fails rather than copying less.
        #expect(throws: SystemError.self) {
            try memory.append(from: FilePath(source.description), offset: 2_999_000, length: 2_000)
        }
    }
}
