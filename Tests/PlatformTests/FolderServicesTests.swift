import TestSupport
import Glibc
import Platform
import Testing

private func touch(_ path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
    precondition(fd >= 0)
    close(fd)
}

@Suite("Platform folder services: listing and inotify")
struct FolderServicesTests {
    let scratch = ScratchDirectory()

    @Test("SystemFolderListing lists names with their kinds and stats entries without following links")
    func listing() throws {
        let folder = scratch.newFolder("folderservices")
        touch(folder + "/photo.jpg")
        mkdir(folder + "/sub", 0o755)
        symlink("photo.jpg", folder + "/link.jpg")
        let open = try SystemFolderListing().openFolder(Array(folder.utf8))
        #expect(open.status.type == .directory)
        var entries: [String: FolderEntryKind] = [:]
        try open.forEachEntry { name, kind in entries[String(decoding: name, as: UTF8.self)] = kind }
        #expect(entries.keys.sorted() == ["link.jpg", "photo.jpg", "sub"])
        #expect(entries["sub"] == .folder || entries["sub"] == .unknown)
        #expect(try open.status(ofEntry: Array("link.jpg".utf8)).type == .symbolicLink)
        #expect(try open.status(ofEntry: Array("photo.jpg".utf8)).type == .regular)
        #expect(throws: (any Error).self) { try open.status(ofEntry: Array("gone.jpg".utf8)) }
    }

    @Test("a folder that is not there fails with ENOENT and its path")
    func missingFolder() {
        let path = scratch.newFolder("folderservices") + "/missing"
        do {
            _ = try SystemFolderListing().openFolder(Array(path.utf8))
            Issue.record("opened a missing folder")
        } catch {
            #expect(error.errno.rawValue == ENOENT)
            #expect(error.path?.description == path)
        }
    }

    @Test("Inotify reports a finished write and both halves of a rename with one cookie")
    func inotifyEvents() throws {
        let folder = scratch.newFolder("folderservices")
        let watch = try Inotify()
        let id = try watch.addWatch(folder: Array(folder.utf8))
        #expect(watch.readEvents().isEmpty)
        touch(folder + "/a.jpg")
        rename(folder + "/a.jpg", folder + "/b.jpg")
        let events = watch.readEvents()
        #expect(events.allSatisfy { $0.watch == id })
        #expect(events.contains { $0.kinds.contains(.closedAfterWrite) && $0.name == Array("a.jpg".utf8) })
        let from = try #require(events.first { $0.kinds.contains(.movedFrom) })
        let to = try #require(events.first { $0.kinds.contains(.movedTo) })
        #expect(from.name == Array("a.jpg".utf8) && to.name == Array("b.jpg".utf8))
        #expect(from.cookie == to.cookie && from.cookie != 0)
        #expect(throws: (any Error).self) { try watch.addWatch(folder: Array((folder + "/b.jpg").utf8)) }   // not a folder
    }
}
