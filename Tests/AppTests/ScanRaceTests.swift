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

/// Lists folders as the kernel does and, after each folder's entries are read, calls
/// `afterReading` on the scanning thread, which waits meanwhile: the moment a change to that
/// folder is invisible to the scan.
final class SteppingFolderListing: FolderListing {
    private let system = SystemFolderListing()
    private let afterReading: @Sendable (RawPath) -> Void

    init(afterReading: @escaping @Sendable (RawPath) -> Void) {
        self.afterReading = afterReading
    }

    func openFolder(_ path: [UInt8]) throws(SystemError) -> any OpenFolder {
        SteppingFolder(inner: try system.openFolder(path), path: RawPath(bytes: path), afterReading: afterReading)
    }

    func status(of path: [UInt8], followingLinks: Bool) throws(SystemError) -> Stat {
        try system.status(of: path, followingLinks: followingLinks)
    }
}

private final class SteppingFolder: OpenFolder {
    let inner: any OpenFolder
    let path: RawPath
    let afterReading: (RawPath) -> Void

    init(inner: any OpenFolder, path: RawPath, afterReading: @escaping (RawPath) -> Void) {
        self.inner = inner
        self.path = path
        self.afterReading = afterReading
    }

    var status: Stat { inner.status }

    func forEachEntry(_ body: (UnsafeRawBufferPointer, FolderEntryKind) -> Void) throws(SystemError) {
        try inner.forEachEntry(body)
        afterReading(path)
    }

    func status(ofEntry name: some Collection<UInt8>) throws(SystemError) -> Stat {
        try inner.status(ofEntry: name)
    }
}

/// Changes photo folders as a copy, a sync or a person would while the kiosk looks: each
/// `disturb` adds a photo to a folder, deletes one the folder had, renames another, and makes a
/// subfolder with a photo in it. Counts what it did at each moment (by tag).
final class FolderDisturber: Sendable {
    /// Photos each top folder starts with (`orig-N.jpg`), used up by deletions and renames.
    static let originals = 24
    private struct State {
        var round = 0
        var usedOriginals: [RawPath: Int] = [:]
        var byTag: [String: Int] = [:]
        var added: [RawPath] = []
        var deleted: [RawPath] = []
        var renamed: [(from: RawPath, to: RawPath)] = []
        var failures: [String] = []
    }
    private let state = Locked(State())

    func disturb(_ folder: RawPath, tag: String) {
        state.withLock { state in
            state.round += 1
            let round = state.round
            state.byTag[tag, default: 0] += 1
            let added = folder.appending("\(tag)-\(round).jpg")
            writeFile(added, [1, 2, 3])
            state.added.append(added)
            let subfolder = folder.appending("\(tag)-\(round)-folder")
            makeDirectory(subfolder)
            let inSubfolder = subfolder.appending("inside.jpg")
            writeFile(inSubfolder, [1, 2, 3])
            state.added.append(inSubfolder)
            let used = state.usedOriginals[folder, default: 0]
            guard used + 2 <= Self.originals, fileExists(folder.appending("orig-\(used + 1).jpg")) else { return }
            state.usedOriginals[folder] = used + 2
            let doomed = folder.appending("orig-\(used + 1).jpg")
            if doomed.withCString({ unlink($0) }) != 0 { state.failures.append("unlink \(doomed): \(errno)") }
            state.deleted.append(doomed)
            let from = folder.appending("orig-\(used + 2).jpg"), to = folder.appending("\(tag)-\(round)-renamed.jpg")
            if from.withCString({ a in to.withCString { b in Glibc.rename(a, b) } }) != 0 {
                state.failures.append("rename \(from): \(errno)")
            }
            state.renamed.append((from, to))
        }
    }

    /// File operations that failed (none should).
    var failures: [String] { state.withLock { $0.failures } }
    func count(_ tag: String) -> Int { state.withLock { $0.byTag[tag] ?? 0 } }
    var added: [RawPath] { state.withLock { $0.added } }
    var deleted: [RawPath] { state.withLock { $0.deleted } }
    var renamedTo: [RawPath] { state.withLock { $0.renamed.map(\.to) } }
    var renamedFrom: [RawPath] { state.withLock { $0.renamed.map(\.from) } }
}

@Suite("Folders changing during a scan")
struct ScanRaceTests {
    /// The photos on disk now, as a fresh scan finds them.
    func onDisk(_ root: RawPath) -> [RawPath] {
        LibraryScanner(roots: [root], logger: LogCapture().logger).scanAll().files.map(\.path).sorted()
    }

    /// Photos are added, deleted and renamed, and folders made, at every moment of the first scan
    /// (after each folder is read; between the batches going into the list; after the walk,
    /// before the folders are watched) and of a rescan (after each folder is read; while its
    /// batches are gathered; after it, before its result is applied and the new watch takes
    /// over): each change is in the list afterwards, none lost, none undone.
    @Test func everyChangeDuringAScanOrARescanReachesTheList() throws {
        let scratch = ScratchDirectory()
        for folder in ["a", "b", "c"] {
            for n in 1...FolderDisturber.originals { scratch.file("p/\(folder)/orig-\(n).jpg", bytes: [1, 2, 3]) }
        }
        let root = scratch["p"]
        let topFolders = ["a", "b", "c"].map { root.appending($0) }
        let loop = try EventLoop(signals: [])
        let disturber = FolderDisturber()
        let disturbing = Locked(true)
        let listing = SteppingFolderListing { [mailbox = loop.mailbox] folder in
            guard disturbing.withLock({ $0 }) else { return }
            // Now, while the scan waits, and again on the loop between the deliveries of its batches.
            disturber.disturb(folder, tag: "read")
            mailbox.post { disturber.disturb(folder, tag: "loop") }
        }
        let config = KioskConfig()
        let log = LogCapture()
        let logger = log.logger
        let display = HeadlessDisplay(width: 640, height: 480)
        let startup = LibraryStartup(folders: [root.description], config: config, loop: loop, logger: logger,
                                     screenSize: display.size, listing: listing)
        let app = KioskApp(config: config, folders: [root.description], display: display, loop: loop,
                           thumbnailCacheDirectory: nil, logger: logger, startup: startup)
        let applyBatch = startup.intake.apply
        var batched = Set<RawPath>()
        startup.intake.apply = { batch in
            batched.formUnion(batch.map(\.path))
            applyBatch(batch)
            for folder in topFolders { disturber.disturb(folder, tag: "applied") }
        }
        let finish = startup.intake.onFinish
        startup.intake.onFinish = { summary in
            for folder in topFolders { disturber.disturb(folder, tag: "beforeWatch") }
            finish(summary)
        }
        try app.start()
        _ = try app.host.run(until: { app.isScanFinished && app.photos.paths.sorted() == onDisk(root) }, timeout: 30)
        try loop.runUntilQuiet()
        #expect(app.isScanFinished)
        for tag in ["read", "loop", "applied", "beforeWatch"] { #expect(disturber.count(tag) > 0, "\(tag)") }
        let missing = Set(onDisk(root)).subtracting(app.photos.paths)
        #expect(missing.isEmpty, """
            missing \(missing.sorted()); of them in the scan's batches: \(missing.intersection(batched).sorted()); \
            held: \(app.libraryWatcher.settling.heldPaths); log: \(log.messages)
            """)
        #expect(app.photos.paths.sorted() == onDisk(root))
        let listed = Set(app.photos.paths)
        #expect(disturber.added.allSatisfy { listed.contains($0) })
        #expect(disturber.renamedTo.allSatisfy { listed.contains($0) })
        #expect(!disturber.deleted.contains { listed.contains($0) } && !disturber.renamedFrom.contains { listed.contains($0) })
        #expect(Set(app.photos.photos.map(\.path)).count == app.photos.count, "no photo listed twice")
        // The watch the scan set up hears what comes next.
        disturbing.withLock { $0 = false }
        scratch.file("p/b/between.jpg", bytes: [1, 2, 3])
        _ = try app.host.run(until: { app.photos.photo(at: root.appending("b/between.jpg")) != nil }, timeout: 20)
        #expect(app.photos.photo(at: root.appending("b/between.jpg")) != nil, "\(log.messages)")
        disturbing.withLock { $0 = true }

        // A rescan (as after an inotify overflow or a remount), disturbed at each of its moments.
        let counted = ["read": disturber.count("read"), "loop": disturber.count("loop")]
        var rescanApplied = false
        let applyRescan = app.libraryWatcher.onRescanned
        app.libraryWatcher.onRescanned = { found in
            for folder in topFolders { disturber.disturb(folder, tag: "beforeRescanApplied") }
            applyRescan(found)
            rescanApplied = true
        }
        let photoBefore = try #require(app.photos.photo(at: root.appending("a/orig-24.jpg")))
        app.libraryWatcher.rescan()
        _ = try app.host.run(until: { rescanApplied && app.photos.paths.sorted() == onDisk(root) }, timeout: 30)
        try loop.runUntilQuiet()
        #expect(rescanApplied)
        #expect(disturber.count("read") > counted["read"]! && disturber.count("loop") > counted["loop"]!)
        #expect(disturber.count("beforeRescanApplied") == 3)
        #expect(app.photos.paths.sorted() == onDisk(root))
        let relisted = Set(app.photos.paths)
        #expect(disturber.added.allSatisfy { relisted.contains($0) })
        #expect(disturber.renamedTo.allSatisfy { relisted.contains($0) })
        #expect(!disturber.deleted.contains { relisted.contains($0) } && !disturber.renamedFrom.contains { relisted.contains($0) })
        #expect(Set(app.photos.photos.map(\.path)).count == app.photos.count, "no photo listed twice")
        #expect(app.photos.photo(at: root.appending("a/orig-24.jpg"))?.id == photoBefore.id, "an untouched photo keeps its identity")

        // Quiet again: the watch the rescan set up hears what comes next.
        disturbing.withLock { $0 = false }
        scratch.file("p/b/after.jpg", bytes: [1, 2, 3])
        _ = try app.host.run(until: { app.photos.photo(at: root.appending("b/after.jpg")) != nil }, timeout: 20)
        #expect(app.photos.photo(at: root.appending("b/after.jpg")) != nil, "\(log.messages)")
        #expect(disturber.failures.isEmpty, "\(disturber.failures)")
    }
}
