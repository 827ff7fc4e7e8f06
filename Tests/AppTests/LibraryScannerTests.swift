import Basics
import Dispatch
import Graphics
import Imaging
import PhotoKioskApp
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("LibraryScanner")
struct LibraryScannerTests {
    /// Latin-1 "café.jpg": not valid UTF-8.
    static let latin1Name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)

    /// A tree with nested folders, mixed-case extensions, non-images, hidden files, links that
    /// loop, stay inside, or leave, a broken link, a FIFO and a non-UTF-8 name.
    func makeTree(_ scratch: ScratchDirectory, outside: ScratchDirectory) -> Set<RawPath> {
        let photos = scratch.directory("photos")
        var expected: Set<RawPath> = []
        for name in ["a.jpg", "B.JPG", "c.Jpeg", "d.PNG", "sub/x10.jpg", "sub/x9.jpg",
                     "sub/deeper/y.png", "2024 trip/z.jpeg"] {
            expected.insert(scratch.file("photos/" + name, bytes: [0xFF, 0xD8]))
        }
        for name in ["notes.txt", "e.gif", "jpg", ".hidden.jpg", ".trash/old.jpg", "sub/README"] {
            scratch.file("photos/" + name)
        }
        let latin1 = photos.appending(Self.latin1Name)
        writeFile(latin1, [1])
        expected.insert(latin1)
        symlink(".", at: photos.appending("loop"))                     // loops back to the root
        symlink("..", at: photos.appending("sub/up"))                  // loops to the parent
        symlink("sub/x9.jpg", at: photos.appending("same-as-x9.jpg"))  // inside: listed once
        symlink("sub", at: photos.appending("sub-again"))              // inside: not twice
        outside.file("secret/z.jpg")
        symlink(outside["secret"].description, at: photos.appending("escape"))
        symlink(outside["secret/z.jpg"].description, at: photos.appending("escape.jpg"))
        symlink("missing.jpg", at: photos.appending("dangling.jpg"))
        _ = photos.appending("pipe.jpg").withCString { mkfifo($0, 0o644) }
        return expected
    }

    @Test("a generated tree is scanned: images only, any case, once each, never outside")
    func scansTree() throws {
        let scratch = ScratchDirectory(), outside = ScratchDirectory()
        let expected = makeTree(scratch, outside: outside)
        let log = LogCapture()
        let scanner = LibraryScanner(roots: [scratch["photos"]], logger: log.logger)
        let (files, summary) = scanner.scanAll()
        #expect(Set(files.map(\.path)) == expected)
        #expect(files.count == expected.count)   // no duplicates
        #expect(files.first { $0.path.lastComponent == Self.latin1Name }?.type == .jpeg)
        #expect(files.first { $0.path == scratch["photos/d.PNG"] }?.type == .png)
        let skipped = Dictionary(summary.skipped.map { ($0.path.lastComponent, $0.reason) },
                                 uniquingKeysWith: { a, _ in a })
        #expect(skipped[Array("dangling.jpg".utf8)] == .brokenLink)
        #expect(skipped[Array("escape".utf8)] == .outsideRoots)
        #expect(skipped[Array("escape.jpg".utf8)] == .outsideRoots)
        #expect(summary.skipped.count == 3)
        #expect(log.messages.count == 3)
        #expect(log.messages.contains { $0.contains("dangling.jpg") })
    }

    @Test("an unreadable folder is skipped with one log line", .enabled(if: geteuid() != 0))
    func unreadableFolder() {
        let scratch = ScratchDirectory()
        scratch.file("p/ok.jpg")
        scratch.file("p/locked/hidden.jpg")
        _ = scratch["p/locked"].withCString { chmod($0, 0) }
        let log = LogCapture()
        let (files, summary) = LibraryScanner(roots: [scratch["p"]], logger: log.logger).scanAll()
        #expect(files.map(\.path) == [scratch["p/ok.jpg"]])
        #expect(summary.skipped.map(\.path) == [scratch["p/locked"]])
        #expect(log.messages.count == 1)
    }

    @Test("several roots, overlapping or missing, list each photo once")
    func severalRoots() {
        let scratch = ScratchDirectory()
        scratch.file("a/1.jpg"); scratch.file("a/inner/2.jpg"); scratch.file("b/3.png")
        let log = LogCapture()
        let scanner = LibraryScanner(roots: [scratch["a"], scratch["b"], scratch["a/inner"], scratch["nope"]],
                                     logger: log.logger)
        let files = scanner.scanAll().files.map(\.path)
        #expect(files.sorted() == [scratch["a/1.jpg"], scratch["a/inner/2.jpg"], scratch["b/3.png"]].sorted())
        #expect(log.messages.count == 1 && log.messages[0].contains("nope"))
    }

    @Test("batches stream: none larger than asked, together exactly the library")
    func batches() {
        let scratch = ScratchDirectory(), outside = ScratchDirectory()
        let expected = makeTree(scratch, outside: outside)
        var batches: [[ScannedFile]] = []
        let summary = LibraryScanner(roots: [scratch["photos"]], logger: LogCapture().logger)
            .scan(batchSize: 3) { batches.append($0) }
        #expect(batches.allSatisfy { !$0.isEmpty && $0.count <= 3 })
        #expect(batches.count == (expected.count + 2) / 3)
        #expect(Set(batches.joined().map(\.path)) == expected)
        #expect(summary.fileCount == expected.count)
    }

    @Test("a background scan delivers its first batch through the loop before it finishes")
    func backgroundScanStreams() throws {
        let scratch = ScratchDirectory()
        for index in 0..<20 { scratch.file("p/\(String(format2: index)).jpg") }
        let gate = DispatchSemaphore(value: 0)
        let posted = DispatchSemaphore(value: 0)
        let blocks = Locked<[@Sendable () -> Void]>([])
        let blocker = scratch["p/15.jpg"]
        // The date reader holds the scan at the 16th photo, after three batches of five.
        let scanner = LibraryScanner(roots: [scratch["p"]], captureDate: { path in
            if path == blocker { gate.wait() }
            return nil
        }, logger: LogCapture().logger)
        var received: [RawPath] = []
        var finished: LibraryScanner.Summary?
        let scan = BackgroundScan(scanner: scanner, batchSize: 5, deliver: { block in
            blocks.withLock { $0.append(block) }
            posted.signal()
        }, onBatch: { received += $0.map(\.path) }, onFinish: { finished = $0 })
        for _ in 0..<3 { #expect(posted.wait(timeout: .now() + 20) == .success) }
        #expect(received.isEmpty)                       // nothing runs off the loop
        for block in blocks.withLock({ b in defer { b = [] }; return b }) { block() }
        #expect(received.count == 15)
        #expect(finished == nil)
        gate.signal()
        scan.waitUntilScanned()
        for block in blocks.withLock({ b in defer { b = [] }; return b }) { block() }
        #expect(received.count == 20)
        #expect(finished?.fileCount == 20)
    }

    @Test("a cancelled background scan delivers nothing more")
    func backgroundScanCancel() {
        let scratch = ScratchDirectory()
        for index in 0..<10 { scratch.file("p/\(index).jpg") }
        let blocks = Locked<[@Sendable () -> Void]>([])
        var received = 0
        let scan = BackgroundScan(scanner: LibraryScanner(roots: [scratch["p"]]), batchSize: 1,
                                  deliver: { block in blocks.withLock { $0.append(block) } },
                                  onBatch: { received += $0.count })
        scan.waitUntilScanned()
        scan.cancel()
        for block in blocks.withLock({ $0 }) { block() }
        #expect(received == 0)
    }

    @Test("10,000 files scan completely and sort")
    func tenThousandFiles() {
        let scratch = ScratchDirectory()
        for folder in 0..<100 {
            let dir = scratch.directory("lib/f\(folder)")
            for index in 0..<100 {
                writeFile(dir.appending("IMG_\(index).\(index % 3 == 0 ? "JPG" : "jpg")"), [])
            }
            writeFile(dir.appending("info.txt"), [])
        }
        let (files, summary) = LibraryScanner(roots: [scratch["lib"]], logger: LogCapture().logger).scanAll()
        #expect(files.count == 10_000)
        #expect(Set(files.map(\.path)).count == 10_000)
        #expect(summary.directoryCount == 101)
        #expect(summary.skipped.isEmpty)
        let list = PhotoList(order: .name)
        list.add(files)
        #expect(list.count == 10_000)
        #expect(list[0].path == scratch["lib/f0/IMG_0.JPG"])
        #expect(list[1].path == scratch["lib/f0/IMG_1.jpg"])
        #expect(list[10].path == scratch["lib/f0/IMG_10.jpg"])
        #expect(list[9_999].path == scratch["lib/f99/IMG_99.JPG"])   // 99 % 3 == 0
        #expect(zip(list.photos, list.photos.dropFirst()).allSatisfy {
            NaturalOrder.precedes($0.path, $1.path)
        })
    }
}

extension String {
    /// Two-digit zero padding without Foundation.
    init(format2 value: Int) { self = value < 10 ? "0\(value)" : "\(value)" }
}
