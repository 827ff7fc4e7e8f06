import Glibc
import Graphics
import Imaging
import Platform
import TestSupport
import Testing
@testable import PhotoKioskApp
import Widgets

/// Issue 11, item 1, at the app level: a folder of hostile files mixed with good photos, the whole
/// KioskApp headless. Every good photo shows, every bad one shows the broken tile (or is skipped),
/// each bad one costs exactly one log line, and memory stays within budget.
@Suite(.serialized) struct HostileLibraryTests {
    @Test func everyGoodPhotoShowsEveryBadOneIsABrokenTileWithOneLogLine() throws {
        let folder = makeTemporaryDirectory("hostile")
        let outside = makeTemporaryDirectory("outside")
        defer { removeTree(folder); removeTree(outside) }
        let files = try HostileFiles.make()
        for file in files { try writeRaw(file.bytes, to: RawPath(folder).appending(file.name)) }
        // Links: one to itself, one leaving the folders (file and directory), one looping up.
        try FileReader.write(try solidPhoto(.white), to: outside + "/secret.jpg")
        #expect(symlink("loop.jpg", folder + "/loop.jpg") == 0)
        #expect(symlink(outside + "/secret.jpg", folder + "/escape.jpg") == 0)
        #expect(symlink(outside, folder + "/escape-dir") == 0)
        #expect(mkdir(folder + "/sub", 0o755) == 0)
        #expect(symlink("..", folder + "/sub/up") == 0)
        let skipped: [[UInt8]] = ["loop.jpg", "escape.jpg", "escape-dir"].map { Array($0.utf8) }

        let capture = LogCapture()
        let rssBefore = residentBytes()
        let (app, display) = try makeHeadlessApp(folders: [folder], memoryMB: 32, logger: capture.logger)
        #expect(try app.runUntilSettled(timeout: 60))

        // Everything listed, nothing from outside, no duplicates through the looping link.
        let shownNames = (0..<app.photos.count).map { app.photos[$0].path.lastComponent }
        #expect(shownNames.count == files.count, "\(shownNames.map { String(decoding: $0, as: UTF8.self) })")
        #expect(Set(shownNames) == Set(files.map(\.name)))
        #expect(app.grid.visibleIndices.count == files.count, "all cells on one screen")

        let warnings = capture.warnings
        let edge = app.grid.thumbnailEdge
        for index in 0..<app.photos.count {
            let name = app.photos[index].path.lastComponent
            let label = String(decoding: name, as: UTF8.self)
            let file = try #require(files.first { $0.name == name })
            let state = app.thumbnails.thumbnailState(at: index, edge: edge)
            let frame = app.grid.convert(app.grid.layout.frame(of: index), to: nil)
            let centre = display.frameBuffer.color(x: Int(frame.midX), y: Int(frame.midY))
            let corner = display.frameBuffer.color(x: Int(frame.minX) + 3, y: Int(frame.minY) + 3)
            let lines = warnings.filter { $0.contains(label) }.count
            switch file.expect {
            case .shows(let color):
                guard case .image = state else { Issue.record("\(label) should show, is \(state)"); continue }
                #expect(colorsClose(centre, color, tolerance: 40), "\(label): \(centre)")
                #expect(lines == 0, "\(label) logged \(lines) lines")
            case .broken:
                guard case .failed = state else { Issue.record("\(label) should be broken, is \(state)"); continue }
                #expect(corner == ThumbnailCellView.brokenColor, "\(label)")
                #expect(lines == 1, "\(label) logged \(lines) lines: \(warnings)")
            case .showsOrBroken:
                switch state {
                case .image: #expect(lines == 0, "\(label)")
                case .failed: #expect(lines == 1, "\(label)"); #expect(corner == ThumbnailCellView.brokenColor)
                case .loading: Issue.record("\(label) still loading")
                }
            case .skipped:
                Issue.record("\(label) is listed")
            }
        }
        for name in skipped {
            let label = String(decoding: name, as: UTF8.self)
            #expect(warnings.filter { $0.contains(label) }.count == 1, "\(label): \(warnings)")
        }
        // Nothing else was logged as a problem: one line per bad entry, none for the good ones.
        let failedCount = (0..<app.photos.count).filter {
            if case .failed = app.thumbnails.thumbnailState(at: $0, edge: edge) { return true } else { return false }
        }.count
        #expect(warnings.count == failedCount + skipped.count, "\(warnings)")

        // The 65000 x 65000 bomb was refused from its header: nothing near 16 GB was touched.
        let grown = residentBytes() - rssBefore
        #expect(grown < 200 << 20, "RSS grew by \(grown >> 20) MB")
    }

    /// A photo that is listed by the scan and gone (or replaced by a directory) before its decode:
    /// a broken tile and one line, the rest of the library unaffected.
    @Test func filesThatVanishOrBecomeUnreadableAfterTheScan() throws {
        let folder = makeTemporaryDirectory("vanish")
        defer { removeTree(folder) }
        for (i, color) in HostileFiles.goodColors.enumerated() {
            try FileReader.write(try solidPhoto(color), to: folder + "/good-\(i).jpg")
        }
        try FileReader.write(try solidPhoto(.white), to: folder + "/vanishes.jpg")
        try FileReader.write(try solidPhoto(.white), to: folder + "/becomes-directory.jpg")

        let capture = LogCapture()
        let photos = PhotoList(order: .name)
        let scanner = LibraryScanner(roots: [RawPath(folder)], logger: capture.logger)
        _ = photos.add(scanner.scanAll().files)
        #expect(photos.count == 8)
        // Between scan and decode:
        #expect(unlink(folder + "/vanishes.jpg") == 0)
        #expect(unlink(folder + "/becomes-directory.jpg") == 0 && mkdir(folder + "/becomes-directory.jpg", 0o000) == 0)

        let loop = try EventLoop(signals: [])
        let cache = ImageCache(budget: 8 << 20)
        let loader = ImageLoader(decoder: PhotoFileDecoder(), cache: cache, deliver: { [mailbox = loop.mailbox] in mailbox.post($0) })
        defer { loader.shutdown() }
        let service = ThumbnailService(photos: photos, loader: loader, cache: cache, logger: capture.logger)
        var arrived = 0
        service.onChange = { _, _ in arrived += 1 }
        service.updateWantedThumbnails(Dictionary(uniqueKeysWithValues: (0..<8).map { ($0, Double($0)) }), edge: 100)
        let deadline = loop.now + 20
        while service.pendingLoads > 0 && loop.now < deadline { try loop.runOnce(timeout: 0.1) }
        #expect(service.pendingLoads == 0)
        var failed: [String] = []
        for index in 0..<photos.count {
            let name = String(decoding: photos[index].path.lastComponent, as: UTF8.self)
            switch service.thumbnailState(at: index, edge: 100) {
            case .image: #expect(name.hasPrefix("good-"), "\(name)")
            case .failed: failed.append(name)
            case .loading: Issue.record("\(name) still loading")
            }
        }
        #expect(failed.sorted() == ["becomes-directory.jpg", "vanishes.jpg"])
        #expect(capture.warnings.count == 2, "\(capture.warnings)")
        #expect(capture.warnings.contains { $0.contains("vanishes.jpg") })
        #expect(capture.warnings.contains { $0.contains("becomes-directory.jpg") })
    }
}
