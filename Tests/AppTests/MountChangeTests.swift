import Glibc
import Graphics
import Imaging
import Platform
@testable import PhotoKioskApp
import TestSupport
import Testing

/// A mount table that changes when the test says so.
final class ScriptedMountTable: MountTableSource {
    var table = MountTable(mounts: [])
    private(set) var watchRequests = 0
    private var onChange: (() -> Void)?

    func currentMounts() -> MountTable? { table }

    func watchChanges(on loop: EventLoop, _ onChange: @escaping () -> Void) throws(PlatformError) -> Bool {
        watchRequests += 1
        self.onChange = onChange
        return true
    }

    func changed() { onChange?() }
}

@Suite("Mount table changes in the app")
struct MountChangeTests {
    /// The folder's path comes to show other contents while nothing inotify watches changes (as
    /// when a stick is mounted over it; here a link swapped in its parent): only the mount
    /// table's signal makes the app look again.
    @Test func aFolderMountedOverIsRescannedWhenTheMountTableSaysSo() throws {
        let scratch = ScratchDirectory()
        for name in ["a/1.jpg", "a/2.jpg", "b/1.jpg", "b/2.jpg", "b/3.jpg"] { scratch.file(name, bytes: [1, 2, 3]) }
        #expect(symlink("a", scratch["photos"].description) == 0)
        let mounts = ScriptedMountTable()
        let app = KioskApp(config: KioskConfig(), folders: [scratch["photos"].description],
                           display: HeadlessDisplay(width: 640, height: 480), loop: try EventLoop(signals: []),
                           thumbnailCacheDirectory: nil, logger: .init(label: "test"))
        app.libraryWatcher.mountTable = mounts
        try app.start()
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.photos.count == 2)
        #expect(mounts.watchRequests == 1, "the app asks its mount table to be told of changes")

        #expect(symlink("b", scratch["new"].description) == 0)
        #expect(rename(scratch["new"].description, scratch["photos"].description) == 0)
        // Nothing the app watches saw that: it keeps the old photos (a bounded look, not a timing).
        _ = try app.host.run(until: { app.photos.count != 2 }, timeout: 0.5)
        #expect(app.photos.count == 2)

        mounts.changed()
        _ = try app.host.run(until: { app.photos.count == 3 }, timeout: 20)
        #expect(app.photos.count == 3)
        #expect(mounts.watchRequests == 1)
    }

    /// A folder on a network file system (NFS here) is rescanned on a timer, since inotify hears
    /// nothing of writes made on the server; a local folder is watched by inotify and not rescanned.
    @Test func aNetworkFolderIsRescannedOnATimer() throws {
        let scratch = ScratchDirectory()
        for name in ["photos/1.jpg", "photos/2.jpg"] { scratch.file(name, bytes: [1, 2, 3]) }
        let folder = try #require(scratch["photos"].resolved())
        let mounts = ScriptedMountTable()
        mounts.table = MountTable(mounts: [Mount(mountPoint: Array("/".utf8), fileSystemType: "ext4"),
                                           Mount(mountPoint: folder.bytes, fileSystemType: "nfs4")])
        let log = LogCapture()
        let app = KioskApp(config: KioskConfig(), folders: [folder.description],
                           display: HeadlessDisplay(width: 640, height: 480), loop: try EventLoop(signals: []),
                           thumbnailCacheDirectory: nil, logger: log.logger)
        app.libraryWatcher.mountTable = mounts
        app.libraryWatcher.pollInterval = 0.2
        try app.start()
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.photos.count == 2)
        #expect(log.messages.contains { $0.hasPrefix("library: rescanning every 0 s: a photo folder is on a network file system") },
                "\(log.messages)")
        scratch.file("photos/3.jpg", bytes: [1, 2, 3])
        #expect(unlink(scratch["photos/1.jpg"].description) == 0)
        _ = try app.host.run(until: { app.photos.count == 2 && app.photos.photo(at: scratch["photos/3.jpg"].resolved()!) != nil }, timeout: 20)
        #expect(app.photos.photo(at: try #require(scratch["photos/3.jpg"].resolved())) != nil, "the new photo was found by a rescan")
        #expect(app.photos.photo(at: folder.appending("1.jpg")) == nil, "the deleted one is gone")
    }
}
