import Imaging
@testable import PhotoKioskApp
import Testing

@Suite("PhotoList and NaturalOrder")
struct LibraryPhotoListTests {
    func file(_ path: String, mtime: Int64 = 0, taken: Int64? = nil, inode: UInt64 = 0, size: Int64 = 1) -> ScannedFile {
        ScannedFile(path: RawPath(path), type: .jpeg,
                    identity: FileIdentity(device: 1, inode: inode == 0 ? UInt64(abs(path.hashValue) % 1_000_000 + 1) : inode),
                    size: size, modificationSeconds: mtime, captureDate: taken)
    }

    @Test("natural order: numbers by value, case-insensitive, a folder before its longer siblings")
    func naturalOrder() {
        let names = ["img_10.jpg", "IMG_9.jpg", "img_2.jpg", "Zebra.jpg", "apple.jpg", "IMG_010.jpg",
                     "2024 trip/a.jpg", "2024/b.jpg", "2024/a.jpg"]
        let sorted = names.map { RawPath($0) }.sorted(by: NaturalOrder.precedes).map(\.description)
        #expect(sorted == ["2024/a.jpg", "2024/b.jpg", "2024 trip/a.jpg", "apple.jpg", "img_2.jpg",
                           "IMG_9.jpg", "IMG_010.jpg", "img_10.jpg", "Zebra.jpg"])   // equal value: first byte difference decides
        #expect(NaturalOrder.compare(Array("a".utf8), Array("A".utf8)) != 0)
        #expect(NaturalOrder.compare(Array("x".utf8), Array("x".utf8)) == 0)
    }

    @Test("extensions are recognised in any case and nothing else is")
    func fileTypes() {
        for name in ["a.jpg", "a.JPG", "a.JpEg", "b.c.jpeg"] { #expect(PhotoFileType(fileName: Array(name.utf8)) == .jpeg) }
        #expect(PhotoFileType(fileName: Array("x.PNG".utf8)) == .png)
        for name in ["IMG_0001.HEIC", "a.heic", "a.HeIf", "DSCF1.HIF"] { #expect(PhotoFileType(fileName: Array(name.utf8)) == .heif, "\(name)") }
        for name in ["a.avif", "a.AVIF"] { #expect(PhotoFileType(fileName: Array(name.utf8)) == .avif, "\(name)") }
        for name in ["a.webp", "a.WebP"] { #expect(PhotoFileType(fileName: Array(name.utf8)) == .webp, "\(name)") }
        for name in ["a.heics", "a.avifs", "a.web", "a.heic.txt"] { #expect(PhotoFileType(fileName: Array(name.utf8)) == nil, "\(name)") }
        let clips: [(String, PhotoFileType)] = [("a.mp4", .mp4), ("IMG_0001.MOV", .mov), ("a.M4v", .m4v), ("a.mkv", .mkv),
                                                ("a.WebM", .webm)]
        for (name, type) in clips {
            #expect(PhotoFileType(fileName: Array(name.utf8)) == type, "\(name)")
            #expect(type.isClip)
        }
        for name in ["a.mp", "a.mp44", "a.movie", "a.mp4.part", "a.m4a"] { #expect(PhotoFileType(fileName: Array(name.utf8)) == nil, "\(name)") }
        #expect(![PhotoFileType.jpeg, .png, .heif, .avif, .webp].contains { $0.isClip })
        // Stored in listing snapshots: the old numbers stay, the new ones follow.
        #expect([PhotoFileType.jpeg, .png, .heif, .avif, .webp, .mp4, .mov, .m4v, .mkv, .webm].map(\.rawValue) == Array(1...10))
        for name in ["jpg", ".jpg", "a.jpgx", "a.gif", "a.jp", "a.png.txt", "a."] {
            #expect(PhotoFileType(fileName: Array(name.utf8)) == nil, "\(name)")
        }
    }

    @Test("batches merge into name order; identities survive later batches")
    func nameOrderAndIdentity() {
        let list = PhotoList(order: .name)
        let first = list.add([file("/p/b10.jpg"), file("/p/b2.jpg")])
        #expect(first.inserted.count == 2)
        let id = list.photo(at: "/p/b2.jpg")!.id
        list.add([file("/p/a.jpg"), file("/p/B3.jpg")])
        #expect(list.paths.map(\.description) == ["/p/a.jpg", "/p/b2.jpg", "/p/B3.jpg", "/p/b10.jpg"])
        #expect(list.photo(at: "/p/b2.jpg")?.id == id)
        #expect(list.index(of: id) == 1)
        #expect(list.index(at: "/p/b10.jpg") == 3, "a path's place follows the merge")
        #expect(list.index(at: "/p/b3.jpg") == nil, "paths are bytes: no case folding")
    }

    @Test("date order uses the capture date, else the file time, ties by name; re-sorting keeps ids")
    func dateOrder() {
        let list = PhotoList(order: .dateTaken)
        list.add([file("/p/a.jpg", mtime: 500), file("/p/b.jpg", mtime: 900, taken: 100),
                  file("/p/c.jpg", mtime: 300), file("/p/d.jpg", mtime: 300)])
        #expect(list.paths.map(\.description) == ["/p/b.jpg", "/p/c.jpg", "/p/d.jpg", "/p/a.jpg"])
        let ids = Set(list.photos.map(\.id))
        list.setOrder(.name)
        #expect(list.paths.map(\.description) == ["/p/a.jpg", "/p/b.jpg", "/p/c.jpg", "/p/d.jpg"])
        #expect(Set(list.photos.map(\.id)) == ids)
    }

    @Test("changes: rewrite keeps the id, move keeps the id, removals and folders go")
    func applyChanges() {
        let list = PhotoList(order: .name)
        list.add([file("/p/a.jpg"), file("/p/sub/b.jpg"), file("/p/sub/deep/c.jpg"), file("/p/d.jpg")])
        let a = list.photo(at: "/p/a.jpg")!.id
        let d = list.photo(at: "/p/d.jpg")!.id
        let rewrite = list.apply([.added(file("/p/a.jpg", mtime: 5, size: 9))])
        #expect(rewrite.updated == [a] && rewrite.inserted.isEmpty)
        #expect(list.photo(at: "/p/a.jpg")?.file.size == 9)

        let moved = list.apply([.moved(from: "/p/d.jpg", to: file("/p/0.jpg"))])
        #expect(moved.updated == [d])
        #expect(list[0].id == d && list[0].path == "/p/0.jpg")
        #expect(list.photo(at: "/p/d.jpg") == nil)

        let gone = list.apply([.removedDirectory("/p/sub"), .removed("/p/a.jpg")])
        #expect(gone.removed.count == 3)
        #expect(list.paths == ["/p/0.jpg"])

        // Added and removed within one update: the grid never hears of it.
        let transient = list.apply([.added(file("/p/tmp.jpg")), .removed("/p/tmp.jpg")])
        #expect(transient.isEmpty)
        #expect(list.count == 1)
        #expect(list.apply([.rescanNeeded]).needsRescan)
    }

    @Test("a moved folder keeps its photos' identities and re-sorts them")
    func movedDirectory() {
        let list = PhotoList()
        list.add([file("/p/a/1.jpg"), file("/p/a/2.jpg"), file("/p/b.jpg"), file("/p/ab/3.jpg")])
        let one = list.photo(at: "/p/a/1.jpg")!.id
        let change = list.apply([.movedDirectory(from: "/p/a", to: "/p/z")])
        #expect(change.updated.count == 2 && change.inserted.isEmpty && change.removed.isEmpty)
        #expect(list.paths == ["/p/ab/3.jpg", "/p/b.jpg", "/p/z/1.jpg", "/p/z/2.jpg"])
        #expect(list.photo(at: "/p/z/1.jpg")?.id == one)
        #expect(list.photo(at: "/p/a/1.jpg") == nil)
    }

    @Test("removing a directory does not remove a sibling with a longer name")
    func directoryPrefix() {
        let list = PhotoList()
        list.add([file("/p/sub/a.jpg"), file("/p/sub2/b.jpg")])
        list.apply([.removedDirectory("/p/sub")])
        #expect(list.paths == ["/p/sub2/b.jpg"])
    }

    @Test("a full rescan diff turns the list into the new scan")
    func rescanDiff() {
        let list = PhotoList()
        list.add([file("/p/a.jpg", mtime: 1), file("/p/b.jpg", mtime: 1), file("/p/c.jpg", mtime: 1)])
        let rescan = [file("/p/a.jpg", mtime: 1), file("/p/b.jpg", mtime: 2), file("/p/e.jpg")]
        let changes = list.diff(against: rescan)
        #expect(changes.count == 3)   // b rewritten, e new, c gone
        list.apply(changes)
        #expect(list.paths == ["/p/a.jpg", "/p/b.jpg", "/p/e.jpg"])
        #expect(list.diff(against: rescan).isEmpty)
    }
}
