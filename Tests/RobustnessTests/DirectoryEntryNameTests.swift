import Imaging
import TestSupport
import Testing

/// Directory listings read each name up to its NUL (DirectoryEntries): short names are not
/// padded or cut, the longest legal name comes back whole, and only "." and ".." are left out.
@Suite struct DirectoryEntryNameTests {
    @Test func everyNameComesBackByteForByte() throws {
        let scratch = ScratchDirectory()
        let names: [[UInt8]] = [
            Array("a".utf8), Array(".hidden".utf8), Array("...".utf8), Array("..x".utf8),
            [UInt8](repeating: UInt8(ascii: "n"), count: 255),   // NAME_MAX
            [0xFF, 0x41, 0xC3],                                    // not UTF-8: bytes as they are
        ]
        for name in names { writeFile(scratch.path.appending(name), [1]) }
        scratch.directory("folder")
        let listed = try #require(directoryEntryNames(scratch.path))
        #expect(listed.count == names.count + 1)
        #expect(Set(listed) == Set(names + [Array("folder".utf8)]))
    }

    @Test func aFolderThatCannotBeOpenedListsNothing() {
        let scratch = ScratchDirectory()
        #expect(directoryEntryNames(scratch["missing"]) == nil)
        #expect(directoryNames(scratch["missing"].description) == [])
    }
}
