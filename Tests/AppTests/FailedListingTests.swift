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

/// Lists folders as the kernel does, except that the folders named in `failing` cannot be opened
/// (an I/O error, as a failing disk or a stale network handle gives).
final class FailingFolderListing: FolderListing {
    private let system = SystemFolderListing()
    let failing = Locked<Set<RawPath>>([])

    func openFolder(_ path: [UInt8]) throws(SystemError) -> any OpenFolder {
        if failing.withLock({ $0.contains(RawPath(bytes: path)) }) {
            throw SystemError("opendir", path: FilePath(RawPath(bytes: path).description), errno: .ioError)
        }
        return try system.openFolder(path)
    }

    func status(of path: [UInt8], followingLinks: Bool) throws(SystemError) -> Stat {
        try system.status(of: path, followingLinks: followingLinks)
    }
}

@Suite("A listing that fails empties nothing")
struct FailedListingTests {
    @Test func aPollKeepsThePhotosOfAFolderItCouldNotRead() {
        let scratch = ScratchDirectory()
        for name in ["a/1.jpg", "a/2.jpg", "b/1.jpg", "b/deep/2.jpg"] { scratch.file("p/\(name)", bytes: [1, 2, 3]) }
        let listing = FailingFolderListing()
        var scanner = LibraryScanner(roots: [scratch["p"]], logger: LogCapture().logger)
        scanner.listing = listing
        let watcher = PollingWatcher(scanner: scanner)
        watcher.prime(with: scanner.scanAll().files)
        listing.failing.withLock { $0 = [scratch["p/b"]] }
        #expect(unlink(scratch["p/a/1.jpg"].description) == 0)
        #expect(watcher.poll() == [.removed(scratch["p/a/1.jpg"])], "b's photos are not taken for deleted")
        listing.failing.withLock { $0 = [] }
        #expect(watcher.poll().isEmpty)
        #expect(unlink(scratch["p/b/deep/2.jpg"].description) == 0)
        #expect(watcher.poll() == [.removed(scratch["p/b/deep/2.jpg"])], "read again, b follows its folder")
    }

    @Test func aRescanKeepsThePhotosOfAFolderItCouldNotRead() throws {
        let scratch = ScratchDirectory()
        for name in ["a/1.jpg", "a/2.jpg", "b/1.jpg", "b/2.jpg"] { scratch.file("p/\(name)", bytes: [1, 2, 3]) }
        let root = scratch["p"]
        let listing = FailingFolderListing()
        let log = LogCapture()
        var rescans = 0
        let app = try startedApp(over: root, listing: listing, log: log, onRescan: { rescans += 1 })
        #expect(app.photos.count == 4)

        listing.failing.withLock { $0 = [root] }   // the whole folder: nothing listed at all
        app.libraryWatcher.rescan()
        _ = try app.host.run(until: { rescans == 1 }, timeout: 20)
        #expect(rescans == 1)
        #expect(app.photos.count == 4, "a failed listing does not empty the frame")
        #expect(log.messages.contains { $0.contains("its 4 photos stay shown") }, "\(log.messages)")

        listing.failing.withLock { $0 = [root.appending("b")] }
        #expect(unlink(root.appending("a/1.jpg").description) == 0)
        app.libraryWatcher.rescan()
        _ = try app.host.run(until: { rescans == 2 }, timeout: 20)
        #expect(app.photos.paths == [root.appending("a/2.jpg"), root.appending("b/1.jpg"), root.appending("b/2.jpg")])

        listing.failing.withLock { $0 = [] }
        #expect(unlink(root.appending("b/2.jpg").description) == 0)
        app.libraryWatcher.rescan()
        _ = try app.host.run(until: { rescans == 3 }, timeout: 20)
        #expect(app.photos.paths == [root.appending("a/2.jpg"), root.appending("b/1.jpg")])
    }
}
