import Glibc
import Graphics
import Imaging
import Platform
@testable import PhotoKioskApp
import SystemAccess
import TestSupport
import Testing

/// A file kept open for writing, as a copy or a download in progress has it.
final class OpenWriter {
    let fd: Int32
    /// Closed already: closing the number again could close another test's descriptor.
    private var isClosed = false

    init(_ path: RawPath, bytes: [UInt8]) {
        fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        precondition(fd >= 0, "cannot create \(path): \(errno)")
        append(bytes)
    }

    func append(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = Glibc.close(fd)
    }
}

/// Turns the loop until `isDone` or `timeout` seconds pass.
func turn(_ loop: EventLoop, until isDone: () -> Bool, timeout: Double) throws {
    let deadline = loop.now + timeout
    while !isDone(), loop.now < deadline { _ = try loop.runOnce(timeout: deadline - loop.now) }
}

@Suite("Files still being written, and sync tools' own files")
struct UnfinishedFileTests {
    static let syncToolNames = [
        "IMG_1.jpg.2f9a6c1e.partial",                        // rclone ≥ 1.63 (--partial-suffix)
        "IMG_2.JPG.PARTIAL",
        ".syncthing.IMG_3.jpg.tmp",                           // Syncthing's temporary file
        "~syncthing~IMG_4.jpg.tmp",                           // … where a leading dot is awkward
        "IMG_5.sync-conflict-20250102-030405-ABCDEFG.jpg",    // Syncthing's conflict copy
        // Syncthing 1.19 names a temporary file whose name would be too long by a hash of it
        ".syncthing.9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.tmp",
        "IMG_7.sync-conflict-20250102-030405-ABCDEFG.sync-conflict-20250103-010101-HIJKLMN.jpg",
    ]

    @Test func syncToolNamesAreNoPhotos() {
        for name in Self.syncToolNames + [".stfolder", ".stversions", ".stignore"] {
            #expect(SyncToolFileName.isExcluded(Array(name.utf8)), "\(name)")
        }
        for name in ["IMG_1.jpg", "partial.jpg", "my.partial.holiday.jpg", "sync-conflict.jpg", "syncthing.jpg", "~IMG.jpg"] {
            #expect(!SyncToolFileName.isExcluded(Array(name.utf8)), "\(name)")
        }
    }

    @Test func theScanSkipsSyncToolFiles() {
        let scratch = ScratchDirectory()
        for name in Self.syncToolNames { scratch.file("p/\(name)", bytes: [1, 2, 3]) }
        scratch.file("p/.stversions/IMG_6~20250102-030405.jpg", bytes: [1, 2, 3])
        scratch.file("p/.stfolder/x.jpg", bytes: [1, 2, 3])
        scratch.file("p/IMG_1.jpg", bytes: [1, 2, 3])
        let files = LibraryScanner(roots: [scratch["p"]], logger: LogCapture().logger).scanAll().files
        #expect(files.map(\.path) == [scratch["p/IMG_1.jpg"]])
    }

    @Test func theWatcherIgnoresSyncToolFilesAndShowsThemOnceRenamedToTheirName() throws {
        let scratch = ScratchDirectory()
        scratch.directory("p")
        let watcher = try InotifyWatcher(scanner: LibraryScanner(roots: [scratch["p"]], logger: LogCapture().logger))
        for name in Self.syncToolNames { scratch.file("p/\(name)", bytes: [1, 2, 3]) }
        scratch.file("p/.stversions/IMG_6~20250102-030405.jpg", bytes: [1, 2, 3])
        #expect(watcher.readChanges() == [])
        rename(scratch["p/IMG_1.jpg.2f9a6c1e.partial"], scratch["p/IMG_1.jpg"])
        rename(scratch["p/.syncthing.IMG_3.jpg.tmp"], scratch["p/IMG_3.jpg"])
        let shown = watcher.readChanges().compactMap { change -> RawPath? in
            if case .added(let file) = change { return file.path } else { return nil }
        }
        #expect(shown == [scratch["p/IMG_1.jpg"], scratch["p/IMG_3.jpg"]])
    }

    /// A copy in progress (rclone 1.60 writes in place; a slow `cp`) has bytes long before it is
    /// complete: it is reported when it is closed, not when it is created. A hard link is a
    /// finished file from the start.
    @Test func theWatcherReportsAFileWhenItIsClosedNotWhileItIsWritten() throws {
        let scratch = ScratchDirectory()
        scratch.directory("p")
        let outside = scratch.file("elsewhere.jpg", bytes: [1, 2, 3])
        let watcher = try InotifyWatcher(scanner: LibraryScanner(roots: [scratch["p"]], logger: LogCapture().logger))
        let writer = OpenWriter(scratch["p/slow.jpg"], bytes: [0xFF, 0xD8, 0xFF])
        writer.append(Array(repeating: 7, count: 4096))
        #expect(watcher.readChanges() == [], "created and written, still open: not yet")
        writer.append([1])
        writer.close()
        let closed = watcher.readChanges()
        #expect(closed.count == 1)
        if case .added(let file)? = closed.first {
            #expect(file.path == scratch["p/slow.jpg"] && file.size == 4100)
        } else {
            Issue.record("expected the finished copy: \(closed)")
        }
        try FileSystemCalls.link(outside.filePath, to: scratch["p/linked.jpg"].filePath)
        let linked = watcher.readChanges()
        #expect(linked.count == 1)
        if case .added(let file)? = linked.first { #expect(file.path == scratch["p/linked.jpg"]) }
    }

    @Test func theKernelSaysWhetherAFileIsOpenForWriting() {
        let scratch = ScratchDirectory()
        let done = scratch.file("done.jpg", bytes: [1, 2, 3])
        #expect(FileSystemCalls.isOpenForWriting(done.filePath) == false)
        let writer = OpenWriter(scratch["writing.jpg"], bytes: [1])
        #expect(FileSystemCalls.isOpenForWriting(scratch["writing.jpg"].filePath) == true)
        writer.close()
        #expect(FileSystemCalls.isOpenForWriting(scratch["writing.jpg"].filePath) == false)
        #expect(FileSystemCalls.isOpenForWriting(scratch["missing.jpg"].filePath) == nil)
    }

    /// The first scan finds a photo still being copied: it stays out of the grid until the copy
    /// is closed, then comes in; a finished photo written just as long ago shows at once.
    @Test func aPhotoTheScanFindsHalfWrittenShowsOnceItIsClosed() throws {
        let scratch = ScratchDirectory()
        scratch.file("p/done.jpg", bytes: [1, 2, 3])
        let writer = OpenWriter(scratch["p/copying.jpg"], bytes: [0xFF, 0xD8, 0xFF, 0xE0])
        defer { writer.close() }
        let app = KioskApp(config: KioskConfig(), folders: [scratch["p"].description],
                           display: HeadlessDisplay(width: 640, height: 480), loop: try EventLoop(signals: []),
                           thumbnailCacheDirectory: nil, logger: LogCapture().logger)
        try app.start()
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.photos.paths == [scratch["p/done.jpg"]])
        #expect(app.libraryWatcher.settling.heldPaths == [scratch["p/copying.jpg"]])
        // Several looks later (one every `quietSeconds`), still open: still held.
        app.libraryWatcher.settling.quietSeconds = 0.05
        _ = try app.host.run(until: { app.photos.count != 1 }, timeout: 0.5)
        #expect(app.photos.paths == [scratch["p/done.jpg"]])
        writer.append(Array(repeating: 9, count: 1000))
        writer.close()
        _ = try app.host.run(until: { app.photos.count == 2 }, timeout: 20)
        #expect(app.photos.photo(at: scratch["p/copying.jpg"])?.file.size == 1004)
    }

    /// Without the watcher's word (a poll, or a close not heard), a held file is looked at again
    /// and shown once nothing has it open for writing.
    @Test func aHeldFileIsShownOnceALaterLookFindsItClosed() throws {
        let scratch = ScratchDirectory()
        let loop = try EventLoop(signals: [])
        let writer = OpenWriter(scratch["copying.jpg"], bytes: [1, 2])
        let list = PhotoList()
        let settling = SettlingFiles(loop: loop, captureDate: nil) { list.photo(at: $0)?.file }
        settling.quietSeconds = 0.05
        var settled: [LibraryChange] = []
        settling.onSettled = { settled += $0 }
        let found = LibraryScanner(roots: [scratch.path], logger: LogCapture().logger).scanAll().files
        #expect(found.count == 1)
        #expect(settling.settled(found).isEmpty)
        try turn(loop, until: { !settled.isEmpty }, timeout: 0.3)
        #expect(settled.isEmpty, "still open")
        writer.append([3, 4, 5])
        writer.close()
        try turn(loop, until: { !settled.isEmpty }, timeout: 10)
        #expect(settled.count == 1)
        if case .added(let file)? = settled.first { #expect(file.size == 5) }
        #expect(settling.heldPaths.isEmpty)
    }
}
