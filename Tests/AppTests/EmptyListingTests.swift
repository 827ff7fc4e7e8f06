import Basics
import Glibc
import Graphics
import Imaging
import Platform
@testable import PhotoKioskApp
import SystemAccess
import SystemPackage
import TestSupport
import Testing

/// Lists folders as the kernel does, except that the folders named in `emptied` list no entries
/// (readable, empty: as a share's mount point with nothing mounted) while inotify hears nothing.
final class EmptyingFolderListing: FolderListing {
    private let system = SystemFolderListing()
    let emptied = Locked<Set<RawPath>>([])

    final class EmptyFolder: OpenFolder {
        let status: Stat
        init(status: Stat) { self.status = status }
        func forEachEntry(_ body: (UnsafeRawBufferPointer, FolderEntryKind) -> Void) throws(SystemError) {}
        func status(ofEntry name: some Collection<UInt8>) throws(SystemError) -> Stat {
            throw SystemError("fstatat", path: FilePath(String(decoding: Array(name), as: UTF8.self)), errno: .noSuchFileOrDirectory)
        }
    }

    func openFolder(_ path: [UInt8]) throws(SystemError) -> any OpenFolder {
        let folder = try system.openFolder(path)
        return emptied.withLock({ $0.contains(RawPath(bytes: path)) }) ? EmptyFolder(status: folder.status) : folder
    }

    func status(of path: [UInt8], followingLinks: Bool) throws(SystemError) -> Stat {
        try system.status(of: path, followingLinks: followingLinks)
    }
}

/// Issue 34 item 4: a folder that lists EMPTY (but readable) after holding many photos — a share's
/// bare mount point, a sync that wiped it by mistake — does not empty the frame at once: the
/// photos stay until a second look finds it empty still. A few files deleted go at once.
@Suite("An empty listing is confirmed before many photos go")
struct EmptyListingTests {
    static let many = EmptyListingGuard.doubtedCount + 2

    @Test func aPollKeepsManyPhotosOfAFolderThatListsEmptyUntilTheNextPoll() {
        let scratch = ScratchDirectory()
        for index in 0..<Self.many { scratch.file("p/share/album/\(index).jpg", bytes: [1, 2, 3]) }
        for index in 0..<3 { scratch.file("p/few/\(index).jpg", bytes: [1, 2, 3]) }
        scratch.file("p/stays.jpg", bytes: [1, 2, 3])   // else the whole library lists empty
        let log = LogCapture()
        let scanner = LibraryScanner(roots: [scratch["p"]], logger: log.logger)
        let watcher = PollingWatcher(scanner: scanner)
        watcher.prime(with: scanner.scanAll().files)

        // The share unmounted: its mount point is there, empty (the album folder went with it).
        for index in 0..<Self.many { #expect(unlink(scratch["p/share/album/\(index).jpg"].description) == 0) }
        #expect(rmdir(scratch["p/share/album"].description) == 0)
        // A few photos deleted for real.
        for index in 0..<3 { #expect(unlink(scratch["p/few/\(index).jpg"].description) == 0) }

        let first = watcher.poll()
        #expect(Set(first) == Set((0..<3).map { LibraryChange.removed(scratch["p/few/\($0).jpg"]) }),
                "the few go at once, the many stay")
        #expect(log.messages.contains { $0.contains("p/share lists empty but had \(Self.many) photos") }, "\(log.messages)")
        let second = watcher.poll()
        #expect(second.count == Self.many, "confirmed empty by the second look: \(second)")
        #expect(second.allSatisfy { if case .removed(let path) = $0 { path.isInside(scratch["p/share"]) } else { false } })
        #expect(watcher.poll().isEmpty)
    }

    @Test func aFolderBackBeforeTheSecondLookLosesNothing() {
        let scratch = ScratchDirectory()
        for index in 0..<Self.many { scratch.file("p/share/\(index).jpg", bytes: [1, 2, 3]) }
        let scanner = LibraryScanner(roots: [scratch["p"]], logger: LogCapture().logger)
        let watcher = PollingWatcher(scanner: scanner)
        watcher.prime(with: scanner.scanAll().files)
        let hidden = scratch.directory("hidden")
        #expect(rename(scratch["p/share"].description, hidden.appending("share").description) == 0)
        scratch.directory("p/share")   // the bare mount point
        #expect(watcher.poll().isEmpty)
        #expect(rmdir(scratch["p/share"].description) == 0)
        #expect(rename(hidden.appending("share").description, scratch["p/share"].description) == 0)
        #expect(watcher.poll().isEmpty, "back: nothing removed, nothing added")
        // Emptied once more later: doubted afresh, not taken for confirmed by the old doubt.
        for index in 0..<Self.many { #expect(unlink(scratch["p/share/\(index).jpg"].description) == 0) }
        #expect(watcher.poll().isEmpty)
        #expect(watcher.poll().count == Self.many)
    }

    @Test func aRescanKeepsThemAndLooksAgainAfterTheDelay() throws {
        let scratch = ScratchDirectory()
        for index in 0..<Self.many { scratch.file("p/share/\(index).jpg", bytes: [1, 2, 3]) }
        scratch.file("p/other/kept.jpg", bytes: [1, 2, 3])
        let root = scratch["p"]
        let listing = EmptyingFolderListing()
        let log = LogCapture()
        var rescans = 0
        let app = try startedApp(over: root, listing: listing, log: log, onRescan: { rescans += 1 })
        #expect(app.photos.count == Self.many + 1)
        app.libraryWatcher.emptyListingRecheckDelay = 1

        listing.emptied.withLock { $0 = [root.appending("share")] }   // inotify hears nothing of it
        app.libraryWatcher.rescan()
        _ = try app.host.run(until: { rescans == 1 }, timeout: 20)
        #expect(app.photos.count == Self.many + 1, "an empty listing does not empty the frame at once")
        #expect(log.messages.contains { $0.contains("lists empty but had \(Self.many) photos") }, "\(log.messages)")

        _ = try app.host.run(until: { rescans == 2 }, timeout: 20)
        #expect(rescans == 2, "the second look comes by itself")
        #expect(app.photos.paths == [root.appending("other/kept.jpg")])
        #expect(log.messages.contains { $0.contains("still lists empty; its \(Self.many) photos go") }, "\(log.messages)")
    }
}
