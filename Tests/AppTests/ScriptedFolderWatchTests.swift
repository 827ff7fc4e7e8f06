import Imaging
import Platform
import PhotoKioskApp
import SystemAccess
import TestSupport
import Testing
import SystemPackage

/// A `FolderWatch` whose events the test writes: the watcher's decoding (renames paired by
/// cookie, overflow, a vanished root) without inotify.
private final class ScriptedFolderWatch: FolderWatch {
    var watched: [[UInt8]] = []
    var removed: [Int32] = []
    var queued: [FolderEvent] = []
    var refuse: Set<[UInt8]> = []

    /// The tests read events themselves; attaching only records that it happened.
    var attached = false
    func attach(to loop: any EventLoopRegistry, onPending: @escaping () -> Void) throws(PlatformError) { attached = true }
    func detach(from loop: any EventLoopRegistry) { attached = false }

    func addWatch(folder path: [UInt8]) throws(SystemError) -> Int32 {
        if refuse.contains(path) { throw SystemError("inotify_add_watch", path: FilePath(bytes: path), errno: .noSpace) }
        if let index = watched.firstIndex(of: path) { return Int32(index + 1) }
        watched.append(path)
        return Int32(watched.count)
    }

    func removeWatch(_ watch: Int32) { removed.append(watch) }

    func readEvents() -> [FolderEvent] {
        defer { queued = [] }
        return queued
    }

    func watch(of path: RawPath) -> Int32 { Int32(watched.firstIndex(of: path.bytes)! + 1) }
}

@Suite("InotifyWatcher on a scripted FolderWatch")
struct ScriptedFolderWatchTests {
    @Test("a rename in one read keeps the photo's identity; overflow asks for a rescan; a vanished root is reported")
    func decodesEvents() throws {
        let scratch = ScratchDirectory()
        scratch.file("p/a.jpg", bytes: [1])
        scratch.file("p/sub/b.jpg", bytes: [1])
        let root = try #require(scratch["p"].resolved())
        let folders = ScriptedFolderWatch()
        let watcher = try InotifyWatcher(scanner: LibraryScanner(roots: [root], logger: LogCapture().logger),
                                         folderWatch: folders)
        #expect(Set(folders.watched) == [root.bytes, root.appending("sub").bytes])
        #expect(watcher.watchCount == 2)

        rename(root.appending("a.jpg"), root.appending("c.jpg"))
        folders.queued = [
            FolderEvent(watch: folders.watch(of: root), kinds: .movedFrom, cookie: 7, name: Array("a.jpg".utf8)),
            FolderEvent(watch: folders.watch(of: root), kinds: .movedTo, cookie: 7, name: Array("c.jpg".utf8)),
        ]
        let changes = watcher.readChanges()
        #expect(changes.count == 1)
        guard case .moved(let from, let to)? = changes.first else { Issue.record("expected .moved, got \(changes)"); return }
        #expect(from == root.appending("a.jpg") && to.path == root.appending("c.jpg"))

        folders.queued = [FolderEvent(watch: -1, kinds: .overflow)]
        #expect(watcher.readChanges() == [.rescanNeeded])

        folders.queued = [FolderEvent(watch: folders.watch(of: root), kinds: .folderDeleted)]
        #expect(watcher.readChanges() == [.removedDirectory(root)])
        #expect(Set(folders.removed) == [1, 2])
    }

    @Test("a folder the kernel refuses to watch is counted, not fatal")
    func refusedWatch() throws {
        let scratch = ScratchDirectory()
        scratch.file("p/sub/b.jpg", bytes: [1])
        let root = try #require(scratch["p"].resolved())
        let folders = ScriptedFolderWatch()
        folders.refuse = [root.appending("sub").bytes]
        let watcher = try InotifyWatcher(scanner: LibraryScanner(roots: [root], logger: LogCapture().logger),
                                         folderWatch: folders)
        #expect(watcher.watchCount == 1)
        #expect(watcher.failedWatches == 1)
    }
}
