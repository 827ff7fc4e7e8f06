import Glibc
import Graphics
import Imaging
import Platform
@testable import PhotoKioskApp
import TestSupport
import Testing

/// Issue 18 item 4: a restart takes its first screenful from the last scan's listing snapshot
/// when the folders have not changed, and lists them when they have (added, removed or renamed
/// photos, in the root or a sub-folder, with the mtime set back, or within a timestamp tick);
/// a damaged snapshot is one log line and a normal scan.
@Suite("Listing snapshot")
struct ListingSnapshotTests {
    /// What one start handed out.
    struct Start {
        var batches: [[ScannedFile]] = []
        var verified: [ScannedFile]?
        var use: SnapshotUse = .missing

        /// The list as the app builds it: batches in, then put right by the walk's result.
        var list: [RawPath] {
            let list = PhotoList(order: .name)
            for batch in batches { list.add(batch) }
            if let verified { list.apply(list.diff(against: verified)) }
            return list.paths
        }
    }

    /// The store, with the clock 10 s after the real one: the folders a test has just written
    /// would otherwise be too fresh to trust (that case has its own test).
    func store(_ cache: ScratchDirectory, _ logs: LogCapture, clockOffset: Int64 = 10_000_000_000) -> ListingSnapshotStore {
        var store = ListingSnapshotStore(directory: cache.path.description, logger: logs.logger)
        store.now = { ListingSnapshotStore.realtimeNanoseconds() + clockOffset }
        return store
    }

    func start(_ root: RawPath, _ store: ListingSnapshotStore) -> Start {
        var scanner = LibraryScanner(roots: [root], logger: store.logger)
        scanner.firstBatchSize = 4
        var result = Start()
        let scan = scanner.scan(snapshot: store, batchSize: 8, onBatch: { result.batches.append($0) },
                                onVerified: { result.verified = $0 })
        result.use = scan.use
        // As `BackgroundScan` does once the scan's end is delivered.
        if let snapshot = scan.snapshotToSave { store.save(snapshot) }
        return result
    }

    /// The folder as a fresh scan lists it.
    func listed(_ root: RawPath) -> [RawPath] {
        LibraryScanner(roots: [root], logger: LogCapture().logger).scanAll().files.map(\.path)
    }

    func makeLibrary(_ scratch: ScratchDirectory) -> RawPath {
        for index in 0..<20 { scratch.file("lib/IMG_\(index).jpg", bytes: [UInt8](repeating: 1, count: index + 1)) }
        scratch.file("lib/sub/deeper/z.png")
        scratch.file("lib/sub/a.jpg")
        return scratch["lib"]
    }

    /// A library (the standard one, or `count` photos named `name(index)` in `folder`) after one
    /// start: its snapshot is written.
    func startedLibrary(folder: String? = nil, count: Int = 0, name: (Int) -> String = { "IMG_\($0).jpg" },
                        clockOffset: Int64 = 10_000_000_000)
        -> StartedLibrary {
        let scratch = ScratchDirectory(), cache = ScratchDirectory(), logs = LogCapture()
        var root = scratch["lib"]
        if let folder {
            root = scratch[folder]
            for index in 0..<count { scratch.file(folder + "/" + name(index)) }
        } else {
            root = makeLibrary(scratch)
        }
        let store = store(cache, logs, clockOffset: clockOffset)
        _ = start(root, store)
        return StartedLibrary(scratch: scratch, cache: cache, logs: logs, root: root, store: store)
    }

    /// The folders of one test: they are removed when it (and so this) goes.
    struct StartedLibrary {
        let scratch: ScratchDirectory, cache: ScratchDirectory, logs: LogCapture
        let root: RawPath, store: ListingSnapshotStore
    }

    func status(_ path: RawPath) -> stat {
        var info = stat()
        _ = path.withCString { stat($0, &info) }
        return info
    }

    @Test("an unchanged library starts from the snapshot: same batches, no folder listed for them, no rewrite")
    func unchangedLibraryUsesSnapshot() {
        let scratch = ScratchDirectory(), cache = ScratchDirectory(), logs = LogCapture()
        let root = makeLibrary(scratch)
        let store = store(cache, logs)
        let first = start(root, store)
        #expect(first.use == .missing)
        #expect(first.verified == nil)
        #expect(first.list == listed(root))
        let written = status(RawPath(store.path))
        let second = start(root, store)
        #expect(second.use == .used)
        #expect(second.batches.first?.map(\.path) == Array(listed(root).prefix(4)))
        #expect(second.batches.joined().map(\.path) == listed(root))
        // The walk still ran and agreed.
        #expect(second.verified?.map(\.path) == listed(root))
        #expect(second.list == listed(root))
        // Nothing changed: the snapshot was not written again (same inode: no rename over it).
        #expect(status(RawPath(store.path)).st_ino == written.st_ino)
        #expect(logs.warnings.isEmpty)
    }

    @Test("a photo added, removed or renamed while the kiosk was off: the snapshot is not used, the list is right",
          arguments: ["add", "remove", "rename", "add in a sub-folder", "rename a sub-folder"])
    func changedWhileOff(change: String) {
        let library = startedLibrary()
        let (scratch, logs, root, store) = (library.scratch, library.logs, library.root, library.store)
        let rootBefore = status(root)
        switch change {
        case "add": scratch.file("lib/IMG_0a.jpg")
        case "remove": _ = scratch["lib/IMG_1.jpg"].withCString { unlink($0) }
        case "rename": rename(scratch["lib/IMG_2.jpg"], scratch["lib/A_first.jpg"])
        case "add in a sub-folder": scratch.file("lib/sub/deeper/y.jpg")
        default: rename(scratch["lib/sub"], scratch["lib/0sub"])
        }
        if change == "add in a sub-folder" {
            // Only the sub-folder's own stamp shows it: the root did not change.
            #expect(status(root).st_mtim.tv_nsec == rootBefore.st_mtim.tv_nsec)
            #expect(status(root).st_mtim.tv_sec == rootBefore.st_mtim.tv_sec)
        }
        let next = start(root, store)
        guard case .stale = next.use else {
            Issue.record("snapshot used after \(change): \(next.use)")
            return
        }
        #expect(next.batches.first?.map(\.path) == Array(listed(root).prefix(4)))
        #expect(next.list == listed(root))
        // And the start after that trusts the new snapshot.
        #expect(start(root, store).use == .used)
    }

    @Test("a folder whose mtime was set back after a change (rsync -t, touch -d) is still seen as changed (ctime)")
    func mtimeSetBack() {
        let library = startedLibrary()
        let (scratch, logs, root, store) = (library.scratch, library.logs, library.root, library.store)
        let before = status(root)
        scratch.file("lib/IMG_0b.jpg")
        var times = [before.st_atim, before.st_mtim]
        #expect(root.withCString { utimensat(AT_FDCWD, $0, &times, 0) } == 0)
        #expect(status(root).st_mtim.tv_sec == before.st_mtim.tv_sec && status(root).st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        let next = start(root, store)
        #expect(next.use != .used)
        #expect(next.list == listed(root))
    }

    @Test("a folder stamped within the timestamp slack of the scan is not trusted (a change in the same tick would not show)")
    func racyFolderIsNotTrusted() {
        // The real clock: the folder was written a moment before the scan.
        let library = startedLibrary(clockOffset: 0)
        let (root, fresh) = (library.root, library.store)
        let next = start(root, fresh)
        guard case .stale(let reason) = next.use else {
            Issue.record("a racy snapshot was used: \(next.use)")
            return
        }
        #expect(reason.contains("too close"))
        #expect(next.list == listed(root))
    }

    @Test("a photo on the first screen rewritten in place (its folder unchanged) shows as it is now")
    func rewrittenInPlace() {
        let library = startedLibrary()
        let (scratch, logs, root, store) = (library.scratch, library.logs, library.root, library.store)
        let before = status(root)
        let photo = scratch["lib/IMG_0.jpg"]
        let fd = photo.withCString { open($0, O_WRONLY | O_APPEND) }
        #expect(fd >= 0)
        _ = [UInt8](repeating: 7, count: 100).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        #expect(status(root).st_ctim.tv_nsec == before.st_ctim.tv_nsec)
        let next = start(root, store)
        #expect(next.use == .used)
        #expect(next.batches.first?.first { $0.path == photo }?.size == Int64(status(photo).st_size))
        #expect(next.list == listed(root))
    }

    @Test("a damaged snapshot is one log line, is removed, and the start scans as without one",
          arguments: ["empty", "garbage", "truncated", "flipped byte in the header", "flipped byte in an entry", "unknown version"])
    func damagedSnapshot(damage: String) throws {
        let library = startedLibrary()
        let (scratch, logs, root, store) = (library.scratch, library.logs, library.root, library.store)
        #expect(logs.warnings.isEmpty)
        var bytes = try FileReader.read(path: store.path)
        switch damage {
        case "empty": bytes = []
        case "garbage": bytes = Array("not a snapshot at all, just text".utf8)
        case "truncated": bytes.removeLast(bytes.count / 3)
        case "flipped byte in the header": bytes[30] ^= 0x40
        case "flipped byte in an entry": bytes[bytes.count - 20] ^= 0x01
        default: bytes[4] = 9
        }
        try FileReader.write(bytes, to: store.path)
        let next = start(root, store)
        guard case .damaged = next.use else {
            Issue.record("\(damage): \(next.use)")
            return
        }
        #expect(logs.warnings.count == 1, "\(logs.warnings)")
        #expect(logs.warnings.first?.contains("listing snapshot") == true)
        #expect(next.list == listed(root))
        // A new one was written, and holds.
        #expect(start(root, store).use == .used)
    }

    @Test("a snapshot larger than the first read: the first screen from its beginning, the rest read after")
    func largeSnapshot() throws {
        let library = startedLibrary(folder: "large", count: 1500) { "holiday-photo-number-\($0).jpg" }
        let (logs, root, store) = (library.logs, library.root, library.store)
        #expect(try FileReader.read(path: store.path).count > ListingSnapshotStore.firstRead)
        let next = start(root, store)
        #expect(next.use == .used)
        #expect(next.batches.joined().map(\.path) == listed(root))
        #expect(next.list == listed(root))
        #expect(logs.warnings.isEmpty)
    }

    @Test("damage after the first screen was handed out: the walk puts the list right")
    func damageInALaterBlock() throws {
        let library = startedLibrary(folder: "big", count: 600)
        let (logs, root, store) = (library.logs, library.root, library.store)
        var bytes = try FileReader.read(path: store.path)
        bytes[bytes.count - 10] ^= 0x10   // in the last block (entries 512...)
        try FileReader.write(bytes, to: store.path)
        let next = start(root, store)
        #expect(next.use == .damaged("checksum mismatch"))
        #expect(next.batches.first?.count == 4)
        #expect(next.verified != nil)
        #expect(next.list == listed(root))
        #expect(logs.warnings.count == 1)
    }

    @Test("names that are not UTF-8, links and capture dates survive the round trip as bytes")
    func roundTrip() throws {
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)
        let files = [
            ScannedFile(path: RawPath(bytes: Array("/p/".utf8) + latin1), type: .jpeg, identity: FileIdentity(device: 3, inode: 9),
                        size: 1234, modificationSeconds: 1_700_000_000, modificationNanoseconds: 5, captureDate: 1_600_000_000),
            ScannedFile(path: RawPath("/elsewhere/link.webp"), type: .webp, identity: FileIdentity(device: 3, inode: 10),
                        size: 1, modificationSeconds: -1),
        ]
        let snapshot = ListingSnapshot(scannedAt: 42, roots: [RawPath("/p")], hasCaptureDates: true,
                                       directories: [DirectoryStamp(path: RawPath("/p"), identity: FileIdentity(device: 3, inode: 2),
                                                                    modified: 7, changed: 8)],
                                       files: files)
        #expect(try ListingSnapshot.decode(snapshot.encoded()) == snapshot)
    }

    @Test("the app: changed while off, the grid is right; unchanged, it starts from the snapshot")
    func appRestarts() throws {
        let scratch = ScratchDirectory(), cache = ScratchDirectory()
        let root = makeLibrary(scratch)
        /// One run of the kiosk until its grid is settled; the app is gone (its scan thread, which
        /// saves the snapshot last, joined) when this returns, as when a kiosk is stopped.
        func run() throws -> (use: SnapshotUse?, paths: [RawPath], cells: Int) {
            let loop = try EventLoop(signals: [])
            var config = KioskConfig()
            config.library.thumbnailSize = 190
            let startup = LibraryStartup(folders: [root.description], config: config, loop: loop, logger: LogCapture().logger,
                                         snapshot: store(cache, LogCapture()))
            let app = KioskApp(config: config, folders: [root.description], display: HeadlessDisplay(width: 640, height: 480),
                               loop: loop, thumbnailCacheDirectory: cache.path.description, logger: LogCapture().logger,
                               startup: startup)
            try app.start()
            #expect(try app.runUntilSettled(timeout: 30))
            return (app.listingSnapshotUse, app.photos.paths, app.grid.itemCount)
        }
        #expect(try run().use == .missing)
        scratch.file("lib/IMG_0a.jpg")
        _ = scratch["lib/IMG_3.jpg"].withCString { unlink($0) }
        rename(scratch["lib/IMG_4.jpg"], scratch["lib/B.jpg"])
        let changed = try run()
        #expect(changed.use != .used)
        #expect(changed.paths == listed(root))
        let unchanged = try run()
        #expect(unchanged.use == .used)
        #expect(unchanged.paths == listed(root))
        #expect(unchanged.cells == listed(root).count)
    }

    @Test("the app's first frame shows the snapshot's photos before the walk; the rest waits for that screen's thumbnails")
    func firstFrameFromSnapshot() throws {
        let scratch = ScratchDirectory(), cache = ScratchDirectory()
        let root = makeLibrary(scratch)
        let all = listed(root).count
        var config = KioskConfig()
        config.library.thumbnailSize = 190
        func makeApp(_ loop: EventLoop) -> KioskApp {
            let startup = LibraryStartup(folders: [root.description], config: config, loop: loop, logger: LogCapture().logger,
                                         screenSize: Size(width: 640, height: 480), snapshot: store(cache, LogCapture()))
            return KioskApp(config: config, folders: [root.description], display: HeadlessDisplay(width: 640, height: 480),
                            loop: loop, thumbnailCacheDirectory: cache.path.description, logger: LogCapture().logger,
                            startup: startup)
        }
        do {  // The first start lists the folders and leaves the snapshot (saved when its scan thread ends).
            let app = makeApp(try EventLoop(signals: []))
            try app.start()
            #expect(try app.runUntilSettled(timeout: 30))
            #expect(app.listingSnapshotUse == .missing)
        }
        let loop = try EventLoop(signals: [])
        let app = makeApp(loop)
        app.firstScreen.patience = 600   // the rest must wait for the thumbnails, however slow the machine
        try app.start()
        app.host.pump()
        var firstFrameItems: Int?, itemsWhileLoading: Set<Int> = []
        let deadline = loop.now + 30
        while loop.now < deadline, !app.grid.isVisibleContentLoaded || firstFrameItems == nil {
            let frames = app.host.framesPresented
            try loop.runOnce(timeout: 0.05)
            app.host.pump()
            if firstFrameItems == nil, app.host.framesPresented > frames, app.grid.itemCount > 0 {
                firstFrameItems = app.grid.itemCount
                // Where the first frame's photos came from, known before the scan ends.
                #expect(app.listingSnapshotUse == .used)
                #expect(!app.isScanFinished)
            }
            if firstFrameItems != nil, !app.grid.isVisibleContentLoaded { itemsWhileLoading.insert(app.grid.itemCount) }
        }
        let first = try #require(firstFrameItems)
        #expect(first < all, "the first frame shows one screenful, not the whole library")
        #expect(itemsWhileLoading == [first], "nothing more goes in while the first screen's thumbnails load")
        #expect(try app.runUntilSettled(timeout: 30))
        #expect(app.grid.itemCount == all)
        #expect(app.listingSnapshotUse == .used)
    }
}
