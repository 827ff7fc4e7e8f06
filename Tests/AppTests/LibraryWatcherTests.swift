import Imaging
import Platform
import PhotoKioskApp
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Library watchers")
struct LibraryWatcherTests {
    /// The list as a fresh scan would build it.
    func rescanned(_ scanner: LibraryScanner) -> [RawPath] {
        let list = PhotoList()
        list.add(scanner.scanAll().files)
        return list.paths
    }

    /// The changes the watcher hands to an event loop it is attached to, in one turn of it.
    func events(_ watcher: InotifyWatcher) throws -> [LibraryChange] {
        let loop = try EventLoop(signals: [])
        var delivered: [LibraryChange]?
        try watcher.attach(to: loop) { delivered = $0 }
        defer { watcher.detach(from: loop) }
        try loop.runOnce(timeout: 0)
        #expect(delivered != nil, "the loop hears of a change at once")
        return delivered ?? []
    }

    @Test("inotify reports added, rewritten, renamed and removed photos and folders")
    func inotifyChanges() throws {
        let scratch = ScratchDirectory()
        scratch.file("p/a.jpg", bytes: [1])
        scratch.file("p/sub/b.jpg", bytes: [1])
        let scanner = LibraryScanner(roots: [scratch["p"]], logger: LogCapture().logger)
        let watcher = try InotifyWatcher(scanner: scanner)
        #expect(watcher.watchCount == 2)
        let list = PhotoList()
        list.add(scanner.scanAll().files)
        #expect(watcher.readChanges().isEmpty)

        // A new photo, written and closed.
        scratch.file("p/sub/new.JPG", bytes: [1, 2])
        var changes = try events(watcher)
        #expect(changes.count == 1)
        guard case .added(let added)? = changes.first else { Issue.record("expected .added"); return }
        #expect(added.path == scratch["p/sub/new.JPG"] && added.size == 2)
        list.apply(changes)
        #expect(list.paths == rescanned(scanner))

        // A name that is not UTF-8 arrives intact.
        let latin1 = scratch["p"].appending(Array("caf".utf8) + [0xE9] + Array(".png".utf8))
        writeFile(latin1, [1])
        changes = try events(watcher)
        #expect(changes.map { change -> RawPath? in if case .added(let f) = change { return f.path } else { return nil } } == [latin1])
        list.apply(changes)
        #expect(list.paths == rescanned(scanner))

        // Non-images and hidden files are ignored.
        scratch.file("p/notes.txt", bytes: [1])
        scratch.file("p/.hidden.jpg", bytes: [1])
        #expect(watcher.readChanges().isEmpty)

        // A rename keeps the identity.
        let id = list.photo(at: scratch["p/a.jpg"])!.id
        rename(scratch["p/a.jpg"], scratch["p/sub/renamed.jpg"])
        changes = try events(watcher)
        #expect(changes == [.moved(from: scratch["p/a.jpg"], to: try #require(changes.first.flatMap {
            if case .moved(_, let to) = $0 { return to } else { return nil }
        }))])
        list.apply(changes)
        #expect(list.photo(at: scratch["p/sub/renamed.jpg"])?.id == id)
        #expect(list.paths == rescanned(scanner))

        // A new folder with photos already inside by the time we look, then a photo in it later.
        scratch.file("p/2025/x.jpg", bytes: [1])
        scratch.file("p/2025/inner/y.png", bytes: [1])
        list.apply(try events(watcher))
        #expect(list.paths == rescanned(scanner))
        scratch.file("p/2025/inner/z.jpg", bytes: [1])
        list.apply(try events(watcher))
        #expect(list.paths == rescanned(scanner))
        #expect(watcher.watchCount == 4)

        // Moving a folder within the library keeps its photos' identities; deleting a photo.
        let xID = list.photo(at: scratch["p/2025/x.jpg"])!.id
        rename(scratch["p/2025"], scratch["p/sub/2025-moved"])
        _ = scratch["p/sub/b.jpg"].withCString { unlink($0) }
        changes = try events(watcher)
        #expect(changes.first == .movedDirectory(from: scratch["p/2025"], to: scratch["p/sub/2025-moved"]))
        let folderMove = list.apply(changes)
        #expect(list.paths == rescanned(scanner))
        #expect(list.photo(at: scratch["p/sub/2025-moved/x.jpg"])?.id == xID)
        #expect(folderMove.inserted.isEmpty && folderMove.removed.count == 1 && folderMove.updated.count == 3)
        scratch.file("p/sub/2025-moved/inner/w.jpg", bytes: [1])   // watches follow the move
        list.apply(try events(watcher))
        #expect(list.paths == rescanned(scanner))

        // Deleting a whole folder; moving a photo out of the library.
        removeTree(scratch["p/sub/2025-moved"])
        list.apply(try events(watcher))
        #expect(list.paths == rescanned(scanner))
        rename(scratch["p/sub/new.JPG"], scratch["outside.jpg"])
        changes = try events(watcher)
        #expect(changes == [.removed(scratch["p/sub/new.JPG"])])
        list.apply(changes)
        #expect(list.paths == rescanned(scanner))
        #expect(watcher.watchCount == 2)
    }

    @Test("polling finds additions, rewrites, renames and removals")
    func pollingDiff() {
        let scratch = ScratchDirectory()
        scratch.file("p/a.jpg", bytes: [1])
        scratch.file("p/b.jpg", bytes: [1])
        scratch.file("p/c.jpg", bytes: [1])
        let scanner = LibraryScanner(roots: [scratch["p"]], logger: LogCapture().logger)
        let watcher = PollingWatcher(scanner: scanner)
        let list = PhotoList()
        let first = scanner.scanAll().files
        list.add(first)
        watcher.prime(with: first)
        #expect(watcher.poll().isEmpty)

        scratch.file("p/new/d.png", bytes: [1])
        scratch.file("p/b.jpg", bytes: [1, 2, 3])
        _ = scratch["p/c.jpg"].withCString { unlink($0) }
        let id = list.photo(at: scratch["p/a.jpg"])!.id
        rename(scratch["p/a.jpg"], scratch["p/new/a2.jpg"])
        let changes = watcher.poll()
        #expect(changes.count == 4)
        #expect(changes.contains(.removed(scratch["p/c.jpg"])))
        #expect(changes.contains { if case .moved(let from, let to) = $0 {
            return from == scratch["p/a.jpg"] && to.path == scratch["p/new/a2.jpg"] } else { return false } })
        let change = list.apply(changes)
        #expect(change.inserted.count == 1 && change.removed.count == 1 && change.updated.count == 2)
        #expect(list.photo(at: scratch["p/new/a2.jpg"])?.id == id)
        #expect(list.paths == rescanned(scanner))
        #expect(watcher.poll().isEmpty)
    }

    @Test("network and FUSE mounts are polled, local ones watched")
    func watchModeFromMountInfo() {
        let mounts = MountTable(mountInfo: Array("""
        22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
        40 22 0:40 / /mnt/nas rw,relatime shared:20 - nfs4 server:/photos rw
        41 22 0:41 / /mnt/my\\040photos rw - fuse.sshfs host: rw
        """.utf8))
        #expect(LibraryWatchMode.fileSystemType(of: "/home/k/p", in: mounts) == "ext4")
        #expect(LibraryWatchMode.fileSystemType(of: "/mnt/nas/2024", in: mounts) == "nfs4")
        #expect(LibraryWatchMode.fileSystemType(of: "/mnt/my photos/a", in: mounts) == "fuse.sshfs")
        #expect(LibraryWatchMode.fileSystemType(of: "/mnt/nasty", in: mounts) == "ext4")
        let scratch = ScratchDirectory()
        let resolved = scratch.path.resolved()!
        let local = MountTable(mounts: [Mount(mountPoint: Array("/".utf8), fileSystemType: "ext4")])
        let share = MountTable(mounts: local.mounts + [Mount(mountPoint: resolved.bytes, fileSystemType: "cifs")])
        #expect(LibraryWatchMode.recommended(for: [scratch.path], mounts: local) == .inotify)
        #expect(LibraryWatchMode.recommended(for: [scratch.path], mounts: share) == .polling)
        #expect(LibraryWatchMode.recommended(for: [scratch.path], mounts: nil) == .inotify)
        #expect(LibraryWatchMode.recommended(for: [scratch.path], mounts: SystemMountTable().currentMounts()) == .inotify)
    }
}
