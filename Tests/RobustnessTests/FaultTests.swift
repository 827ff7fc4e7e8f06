import Glibc
import Graphics
import Imaging
import Platform
import TestSupport
import Testing
@testable import PhotoKioskApp
import Widgets
import SystemAccess
import SystemPackage

/// A small tmpfs (needs root, which the test machine and the QEMU guest have); nil elsewhere.
final class TinyDisk {
    let path: String
    init?(kilobytes: Int) {
        path = makeTemporaryDirectory("tmpfs")
        guard getuid() == 0, mount("tmpfs", path, "tmpfs", 0, "size=\(kilobytes)k") == 0 else {
            rmdir(path)
            return nil
        }
    }
    /// Fills the disk to the last byte.
    func fill() {
        let fd = open(path + "/filler", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        let block = [UInt8](repeating: 0xAB, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress!, $0.count) }) > 0 {}
        close(fd)
    }
    deinit {
        umount2(path, Int32(MNT_DETACH))
        rmdir(path)
    }
}

/// Issue 11, item 3 on the host: disk full while saving the order or the thumbnail cache, the
/// photo folder unmounted (or renamed away) and back.
@Suite(.serialized) struct FaultTests {
    static let order = CustomOrder(paths: (0..<50).map { "/photos/IMG_\($0).jpg" })
    static let longerOrder = CustomOrder(paths: (0..<5000).map { "/photos/a-much-longer-folder-name/IMG_\($0).jpg" })

    @Test func orderSaveFailingAtAnyStepKeepsThePreviousOrder() throws {
        let dir = makeTemporaryDirectory("order")
        defer { removeTree(dir) }
        let file = dir + "/order.txt"
        try Self.order.save(to: file)
        for step in [AtomicFile.Step.createTemporary, .write, .syncFile, .rename] {
            #expect(throws: AtomicFile.WriteError.self) { try Self.longerOrder.save(to: file, failing: { $0 == step }) }
            #expect(CustomOrder.load(from: file) == Self.order, "after \(step)")
            #expect(directoryNames(dir) == ["order.txt"], "temporary file left after \(step)")
        }
    }

    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func orderSaveOnAFullDiskKeepsThePreviousOrder() throws {
        let disk = try #require(TinyDisk(kilobytes: 512))
        let file = disk.path + "/order.txt"
        try Self.order.save(to: file)
        disk.fill()
        let error = try #require(throws: AtomicFile.WriteError.self) { try Self.longerOrder.save(to: file) }
        #expect(error.errno == Errno(rawValue: ENOSPC), "\(error)")
        #expect(CustomOrder.load(from: file) == Self.order)
        #expect(directoryNames(disk.path).sorted() == ["filler", "order.txt"])
        // Space again: the next save works.
        unlink(disk.path + "/filler")
        try Self.longerOrder.save(to: file)
        #expect(CustomOrder.load(from: file) == Self.longerOrder)
    }

    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func thumbnailCacheOnAFullDiskIsSkippedWithOneLineAndPhotosStillShow() throws {
        let disk = try #require(TinyDisk(kilobytes: 64))
        disk.fill()
        let folder = makeTemporaryDirectory("fullcache")
        defer { removeTree(folder) }
        for (i, color) in HostileFiles.goodColors.enumerated() {
            try FileReader.write(try solidPhoto(color), to: folder + "/p\(i).jpg")
        }
        // The cache itself: writes refused, one line, reads still fine (misses).
        let capture = LogCapture()
        // ENOSPC is the storage's news: said once by the health (as the app logs it), not by the cache.
        let health = StorageHealth()
        let logger = capture.logger
        health.setObserver { change in logger.warning("\(StorageHealth.logLine(change))") }
        let cache = ThumbnailDiskCache(directory: RawPath(disk.path + "/thumbs"), maxBytes: 1 << 20, logger: capture.logger,
                                       health: health)
        let bitmap = Bitmap(width: 64, height: 64)
        for i in 0..<6 {
            let key = try #require(ThumbnailCacheKey(path: RawPath(folder + "/p\(i).jpg"), edge: 64))
            #expect(cache.write(bitmap, for: key) == false)
            #expect(cache.read(key) == nil)
        }
        #expect(capture.warnings.count == 1, "\(capture.warnings)")
        #expect(capture.warnings.first?.hasPrefix("storage failing since ") == true, "\(capture.warnings)")
        #expect(capture.warnings.first?.contains("No space left on device in \(disk.path)/thumbs") == true, "\(capture.warnings)")
        #expect(health.failing?.failedWrites == 6)
        #expect(cache.writeFailureCount == 6)

        // The whole app with its cache on the full disk: every photo still shows.
        var config = KioskConfig()
        config.library.thumbnailSize = 150
        config.cache.diskMB = 1
        let display = HeadlessDisplay(width: 1000, height: 700)
        let app = KioskApp(config: config, folders: [folder], display: display, loop: try EventLoop(signals: []),
                           thumbnailCacheDirectory: disk.path + "/app-thumbs", logger: capture.logger)
        try app.start()
        #expect(try app.runUntilSettled(timeout: 30))
        for index in 0..<app.photos.count {
            guard case .image = app.thumbnails.thumbnailState(at: index, edge: app.grid.thumbnailEdge) else {
                Issue.record("photo \(index) not shown with a full cache disk"); continue
            }
        }
        #expect(app.photos.count == 6)
    }

    /// The folder disappears (unmounted; here renamed away, which inotify reports the same way for
    /// the root) and comes back: no crash while it is gone, and its photos show again.
    @Test func photoFolderRenamedAwayAndBack() throws {
        let parent = makeTemporaryDirectory("remount")
        defer { removeTree(parent) }
        let folder = parent + "/photos"
        mkdir(folder, 0o755)
        for (i, color) in HostileFiles.goodColors.enumerated() {
            try FileReader.write(try solidPhoto(color), to: folder + "/p\(i).jpg")
        }
        let capture = LogCapture()
        let (app, _) = try makeHeadlessApp(folders: [folder], width: 800, height: 600, logger: capture.logger)
        #expect(try app.runUntilSettled(timeout: 30))
        #expect(app.photos.count == 6)
        #expect(rename(folder, parent + "/away") == 0)
        _ = try app.host.run(until: { app.photos.count == 0 }, timeout: 5)
        #expect(app.photos.count == 0, "photos of a vanished folder are dropped")
        _ = try app.runUntilSettled(timeout: 5)
        #expect(rename(parent + "/away", folder) == 0)
        _ = try app.host.run(until: { app.photos.count == 6 }, timeout: 10)
        #expect(app.photos.count == 6, "photos come back with the folder")
    }

    @Test(.enabled(if: getuid() == 0, "mounting needs root"))
    func photoFolderUnmountedAndRemounted() throws {
        let source = makeTemporaryDirectory("mount-src")
        let folder = makeTemporaryDirectory("mountpoint")
        defer { umount2(folder, Int32(MNT_DETACH)); removeTree(source); rmdir(folder) }
        for (i, color) in HostileFiles.goodColors.enumerated() {
            try FileReader.write(try solidPhoto(color), to: source + "/p\(i).jpg")
        }
        #expect(mount(source, folder, nil, UInt(MS_BIND), nil) == 0)
        let capture = LogCapture()
        let (app, _) = try makeHeadlessApp(folders: [folder], width: 800, height: 600, logger: capture.logger)
        #expect(try app.runUntilSettled(timeout: 30))
        #expect(app.photos.count == 6)
        #expect(umount2(folder, 0) == 0, "umount: errno \(errno)")
        _ = try app.host.run(until: { app.photos.count == 0 }, timeout: 5)
        #expect(app.photos.count == 0, "photos of an unmounted folder are dropped")
        _ = try app.runUntilSettled(timeout: 5)
        #expect(mount(source, folder, nil, UInt(MS_BIND), nil) == 0)
        _ = try app.host.run(until: { app.photos.count == 6 }, timeout: 10)
        #expect(app.photos.count == 6, "photos come back with the mount")
    }
}

