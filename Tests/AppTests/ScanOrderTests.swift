import Basics
import Graphics
import Imaging
import Platform
@testable import PhotoKioskApp
import TestSupport
import Testing

/// Issue 10/11: the scan comes out in the list's name order (so the first batch is the first
/// screen and batches append), the list merges out-of-order batches without losing or doubling
/// a photo, and the app puts the first batch on screen before the rest.
@Suite("Scan order and batched merging")
struct ScanOrderTests {
    func file(_ path: String, mtime: Int64 = 0, inode: UInt64) -> ScannedFile {
        ScannedFile(path: RawPath(path), type: .jpeg, identity: FileIdentity(device: 1, inode: inode),
                    size: 1, modificationSeconds: mtime)
    }

    /// Names that natural order and byte order disagree about: numbers, case, a folder whose
    /// name extends a file's, folders between files.
    static let treeNames = ["IMG_10.jpg", "img_9.jpg", "IMG_100.JPG", "a.jpg", "B.jpg", "2024/x2.jpg",
                            "2024/x10.jpg", "2024 trip/y.jpg", "2024.jpg", "sub/deeper/z.png", "sub/c.jpg",
                            "sub.jpg", "Sub2/d.jpg", "x9/e.jpg", "x10.jpg", "x9.jpg", "zz/1.jpg"]

    @Test("a tree is scanned in exactly the list's name order, in batches of the sizes asked")
    func scanIsInNameOrder() {
        let scratch = ScratchDirectory()
        for name in Self.treeNames { scratch.file("p/" + name) }
        for index in 0..<40 { scratch.file("p/many/\(index).jpg") }
        scratch.file("p/.hidden.jpg")
        scratch.file("p/notes.txt")
        var batches: [[ScannedFile]] = []
        LibraryScanner(roots: [scratch["p"]], logger: LogCapture().logger)
            .scan(batchSize: 7, firstBatchSize: 3) { batches.append($0) }
        let scanned = batches.joined().map(\.path)
        #expect(scanned == scanned.sorted(by: NaturalOrder.precedes))
        #expect(scanned.count == Self.treeNames.count + 40)
        #expect(Set(scanned).count == scanned.count)
        #expect(batches.first?.count == 3)
        #expect(batches.dropFirst().allSatisfy { !$0.isEmpty && $0.count <= 7 })
        // Appending them batch by batch is the sorted list.
        let list = PhotoList(order: .name)
        for batch in batches { list.add(batch) }
        #expect(list.paths == scanned)
    }

    @Test("a large folder's first batch is its first names, though only they were ordered up front")
    func largeFolderFirstBatch() {
        let scratch = ScratchDirectory()
        // Written in a shuffled order; readdir returns hash order anyway.
        var generator = SeededRandom(seed: 7)
        for index in (0..<600).shuffled(using: &generator) { scratch.file("big/IMG_\(index).jpg") }
        scratch.file("big/.DS_Store")
        var batches: [[ScannedFile]] = []
        LibraryScanner(roots: [scratch["big"]], logger: LogCapture().logger)
            .scan(batchSize: 100, firstBatchSize: 20) { batches.append($0) }
        #expect(batches.first?.map(\.path) == (0..<20).map { scratch["big/IMG_\($0).jpg"] })
        #expect(batches.joined().map(\.path) == (0..<600).map { scratch["big/IMG_\($0).jpg"] })
    }

    @Test("several roots come out in name order whatever order they were configured in")
    func rootsInNameOrder() {
        let scratch = ScratchDirectory()
        scratch.file("b/1.jpg"); scratch.file("a/2.jpg"); scratch.file("a b/3.jpg")
        let files = LibraryScanner(roots: [scratch["b"], scratch["a b"], scratch["a"]], logger: LogCapture().logger)
            .scanAll().files.map(\.path)
        #expect(files == [scratch["a/2.jpg"], scratch["a b/3.jpg"], scratch["b/1.jpg"]])
    }

    @Test("orderPrefix puts the k smallest first in order and keeps every element", arguments: [0, 1, 5, 40, 250, 1000])
    func orderPrefix(k: Int) {
        var generator = SeededRandom(seed: UInt64(k) + 1)
        let values = (0..<1000).map { _ in Int.random(in: 0..<400, using: &generator) }
        var ordered = values
        let count = ordered.orderPrefix(k, by: <)
        #expect(count >= min(k, values.count))
        #expect(Array(ordered[..<count]) == Array(values.sorted()[..<count]))
        #expect(ordered.sorted() == values.sorted())
    }

    @Test("batches in any order merge into the sorted list: none lost, none doubled", arguments: [LibrarySortOrder.name, .dateTaken])
    func shuffledBatchesMerge(order: LibrarySortOrder) {
        var generator = SeededRandom(seed: 11)
        let files = (0..<2000).map { file("/p/f\($0 % 50)/IMG_\($0).jpg", mtime: Int64($0 % 97), inode: UInt64($0 + 1)) }
        let shuffled = files.shuffled(using: &generator)
        let list = PhotoList(order: order)
        var start = 0
        while start < shuffled.count {
            let size = Int.random(in: 1...300, using: &generator)
            list.add(Array(shuffled[start..<min(start + size, shuffled.count)]))
            start += size
            // The id index stays right across appends and merges.
            let probe = list[list.count / 2]
            #expect(list.index(of: probe.id) == list.count / 2)
        }
        let reference = PhotoList(order: order)
        reference.add(files)
        #expect(list.paths == reference.paths)
        #expect(Set(list.paths).count == files.count)
    }

    @Test("appended batches keep the id index right without a rebuild")
    func appendKeepsIndex() {
        let list = PhotoList(order: .name)
        list.add((0..<10).map { file("/p/\($0).jpg", inode: UInt64($0 + 1)) })
        let early = list[3].id
        #expect(list.index(of: early) == 3)   // builds the index
        list.add((10..<20).map { file("/p/\($0).jpg", inode: UInt64($0 + 1)) })
        #expect(list.index(of: early) == 3)
        #expect(list.index(of: list[15].id) == 15)
        #expect(list.photo(at: "/p/19.jpg")?.path == "/p/19.jpg")
    }

    @Test("a custom order holds while batches arrive in any order")
    func customOrderAcrossBatches() {
        let files = (0..<300).map { file("/p/\($0).jpg", inode: UInt64($0 + 1)) }
        let saved: [RawPath] = ["/p/250.jpg", "/p/3.jpg", "/p/120.jpg", "/p/gone.jpg", "/p/7.jpg"]
        let list = PhotoList(order: .name)
        list.setCustomOrder(saved)
        var generator = SeededRandom(seed: 5)
        let shuffled = files.shuffled(using: &generator)
        for start in stride(from: 0, to: 300, by: 64) { list.add(Array(shuffled[start..<min(start + 64, 300)])) }
        let ranked: [RawPath] = ["/p/250.jpg", "/p/3.jpg", "/p/120.jpg", "/p/7.jpg"]
        #expect(Array(list.paths.prefix(4)) == ranked)
        let rest = files.map(\.path).filter { !ranked.contains($0) }
        #expect(Array(list.paths.dropFirst(4)) == rest)
    }

    @Test("the intake applies the first batch at once, joins later ones on the next turn, and finishes after them")
    func intakeBatching() {
        var queued: [() -> Void] = []
        let intake = ScanIntake(later: { queued.append($0) })
        var applied: [[Int]] = []
        var finished = false
        intake.apply = { applied.append($0.map { Int($0.identity.inode) }) }
        intake.onFinish = { _ in finished = true }
        var shown = false
        intake.onFirstShown = { shown = true }
        let batch = { (range: Range<Int>) in range.map { file("/p/\($0).jpg", inode: UInt64($0)) } }
        intake.receive(batch(0..<3))
        #expect(applied == [[0, 1, 2]])
        // The scan hears that the first batch is on screen on the next turn (after its frame).
        #expect(queued.count == 1 && !shown)
        intake.receive(batch(3..<5))
        intake.receive(batch(5..<6))
        #expect(applied.count == 1 && queued.count == 2)   // one turn later, together
        queued.removeFirst()()
        #expect(shown)
        queued.removeFirst()()
        #expect(applied.last == [3, 4, 5])
        intake.receive(batch(6..<8))
        intake.finish(LibraryScanner.Summary(fileCount: 8, directoryCount: 1, skipped: []))
        #expect(applied.last == [3, 4, 5] && !finished)   // the end too waits for the next turn
        while !queued.isEmpty { queued.removeFirst()() }
        #expect(applied.last == [6, 7])   // nothing stays behind the end
        #expect(finished)
        #expect(applied.joined().sorted() == Array(0..<8))
    }

    @Test("the app's first photos on screen are the first of the final order, and all arrive once")
    func appFirstScreenIsFinal() throws {
        let scratch = ScratchDirectory()
        var generator = SeededRandom(seed: 3)
        for index in (0..<900).shuffled(using: &generator) { scratch.file("lib/p\(index).jpg") }
        for index in 0..<30 { scratch.file("lib/a-folder/q\(index).jpg") }
        var config = KioskConfig()
        config.library.thumbnailSize = 190
        let display = HeadlessDisplay(width: 800, height: 600)
        let loop = try EventLoop(signals: [])
        let app = KioskApp(config: config, folders: [scratch["lib"].description], display: display, loop: loop,
                           thumbnailCacheDirectory: nil, logger: LogCapture().logger)
        try app.start()
        app.host.pump()
        let start = loop.now
        var firstShown: [RawPath] = []
        while firstShown.isEmpty && loop.now < start + 30 {
            _ = try loop.runOnce(timeout: 0.05)
            app.host.pump()
            if app.grid.itemCount > 0 { firstShown = app.photos.paths }
        }
        // The first frame with photos waited for one screenful only.
        let screenful = LibraryStartup.screenful(of: display.size, thumbnailSize: 190)
        #expect(!firstShown.isEmpty && firstShown.count <= screenful)
        #expect(try app.runUntilSettled(timeout: 60))
        let expected = ((0..<30).map { scratch["lib/a-folder/q\($0).jpg"] } + (0..<900).map { scratch["lib/p\($0).jpg"] })
        #expect(app.photos.paths == expected)
        #expect(Array(app.photos.paths.prefix(firstShown.count)) == firstShown)
    }
}
