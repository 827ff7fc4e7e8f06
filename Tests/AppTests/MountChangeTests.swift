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
        app.mountTable = mounts
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
}
