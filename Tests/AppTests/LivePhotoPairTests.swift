import Imaging
@testable import PhotoKioskApp
import Testing

/// Issue 35 item 2: a Live Photo's still and its .mov are one item in the list, whatever order
/// the halves arrive, leave or are renamed in.
@Suite("Live Photo pairs in the photo list")
struct LivePhotoPairTests {
    func file(_ path: String, mtime: Int64 = 0, taken: Int64? = nil, size: Int64 = 1) -> ScannedFile {
        let type = PhotoFileType(fileName: RawPath(path).lastComponent)!
        return ScannedFile(path: RawPath(path), type: type,
                           identity: FileIdentity(device: 1, inode: UInt64(abs(path.hashValue) % 1_000_000 + 1)),
                           size: size, modificationSeconds: mtime, captureDate: taken)
    }

    func listed(_ list: PhotoList) -> [String] { list.photos.map(\.path.description) }
    func motion(_ list: PhotoList, _ path: String) -> String? { list.photo(at: RawPath(path))?.motion?.description }

    @Test("a scan lists the still with its clip attached, the stems matched without regard to case")
    func scan() {
        let list = PhotoList()
        let change = list.add([file("/p/IMG_1.HEIC"), file("/p/img_1.mov"), file("/p/IMG_2.JPG"),
                               file("/p/IMG_2.MOV"), file("/p/IMG_3.MOV"), file("/p/IMG_4.jpg"), file("/p/IMG_4.mp4"),
                               file("/q/IMG_5.MOV"), file("/p/IMG_5.HEIC")])
        #expect(listed(list) == ["/p/IMG_1.HEIC", "/p/IMG_2.JPG", "/p/IMG_3.MOV", "/p/IMG_4.jpg", "/p/IMG_4.mp4",
                                 "/p/IMG_5.HEIC", "/q/IMG_5.MOV"],
                "a clip alone, an .mp4 and a clip in another folder stay items of their own")
        #expect(motion(list, "/p/IMG_1.HEIC") == "/p/img_1.mov")
        #expect(motion(list, "/p/IMG_2.JPG") == "/p/IMG_2.MOV")
        #expect(motion(list, "/p/IMG_4.jpg") == nil && motion(list, "/p/IMG_5.HEIC") == nil)
        #expect(change.inserted.count == 7 && change.removed.isEmpty, "the attached clips never reach the grid")
        #expect(list.allFiles.count == 9)
        #expect(Set(list.takeUnconfirmedPairs()) == [MotionPair(still: "/p/IMG_1.HEIC", clip: "/p/img_1.mov"),
                                                      MotionPair(still: "/p/IMG_2.JPG", clip: "/p/IMG_2.MOV")])
        #expect(list.takeUnconfirmedPairs().isEmpty, "each pair is handed out once")
    }

    @Test("the clip arriving after its still, or before it, in a later change")
    func arrivalOrders() {
        let after = PhotoList()
        after.add([file("/p/a.jpg"), file("/p/IMG_1.HEIC")])
        let still = after.photo(at: "/p/IMG_1.HEIC")!.id
        let change = after.apply([.added(file("/p/IMG_1.MOV"))])
        #expect(listed(after) == ["/p/a.jpg", "/p/IMG_1.HEIC"])
        #expect(motion(after, "/p/IMG_1.HEIC") == "/p/IMG_1.MOV")
        #expect(change.inserted.isEmpty && change.removed.isEmpty && change.updated == [still])

        let before = PhotoList()
        before.add([file("/p/IMG_1.MOV")])
        let clipID = before.photo(at: "/p/IMG_1.MOV")!.id
        let second = before.apply([.added(file("/p/IMG_1.HEIC"))])
        #expect(listed(before) == ["/p/IMG_1.HEIC"])
        #expect(motion(before, "/p/IMG_1.HEIC") == "/p/IMG_1.MOV")
        #expect(second.removed == [clipID] && second.inserted == [before.photo(at: "/p/IMG_1.HEIC")!.id])
        #expect(before.takeUnconfirmedPairs() == [MotionPair(still: "/p/IMG_1.HEIC", clip: "/p/IMG_1.MOV")])

        // Both in one change, clip first.
        let together = PhotoList()
        let third = together.apply([.added(file("/p/IMG_1.MOV")), .added(file("/p/IMG_1.HEIC"))])
        #expect(listed(together) == ["/p/IMG_1.HEIC"] && third.inserted.count == 1 && third.removed.isEmpty)
    }

    @Test("the still deleted: the clip is an item again; the clip deleted: the still loses its motion")
    func removals() {
        let list = PhotoList()
        list.add([file("/p/IMG_1.HEIC"), file("/p/IMG_1.MOV"), file("/p/IMG_2.HEIC"), file("/p/IMG_2.MOV")])
        let still1 = list.photo(at: "/p/IMG_1.HEIC")!.id
        let gone = list.apply([.removed("/p/IMG_1.HEIC")])
        #expect(listed(list) == ["/p/IMG_1.MOV", "/p/IMG_2.HEIC"])
        #expect(gone.removed == [still1] && gone.inserted == [list.photo(at: "/p/IMG_1.MOV")!.id])

        let still2 = list.photo(at: "/p/IMG_2.HEIC")!.id
        let clipGone = list.apply([.removed("/p/IMG_2.MOV")])
        #expect(listed(list) == ["/p/IMG_1.MOV", "/p/IMG_2.HEIC"])
        #expect(motion(list, "/p/IMG_2.HEIC") == nil)
        #expect(clipGone.updated == [still2] && clipGone.removed.isEmpty && clipGone.inserted.isEmpty)
        #expect(list.allFiles.count == 2)
        // A still arriving again takes the clip back.
        list.apply([.added(file("/p/IMG_1.JPG"))])
        #expect(listed(list) == ["/p/IMG_1.JPG", "/p/IMG_2.HEIC"] && motion(list, "/p/IMG_1.JPG") == "/p/IMG_1.MOV")
    }

    @Test("renames: a still renamed away and back, a clip renamed to match or away, a folder renamed")
    func renames() {
        let list = PhotoList()
        list.add([file("/p/IMG_1.HEIC"), file("/p/IMG_1.MOV"), file("/p/clip.MOV")])
        let still = list.photo(at: "/p/IMG_1.HEIC")!.id
        list.apply([.moved(from: "/p/IMG_1.HEIC", to: file("/p/holiday.HEIC"))])
        #expect(listed(list) == ["/p/clip.MOV", "/p/holiday.HEIC", "/p/IMG_1.MOV"])
        #expect(list.photo(at: "/p/holiday.HEIC")?.id == still && motion(list, "/p/holiday.HEIC") == nil)
        // The lone clip renamed to the still's name joins it; the other stays alone.
        let clipID = list.photo(at: "/p/clip.MOV")!.id
        let joined = list.apply([.moved(from: "/p/clip.MOV", to: file("/p/Holiday.mov"))])
        #expect(listed(list) == ["/p/holiday.HEIC", "/p/IMG_1.MOV"])
        #expect(motion(list, "/p/holiday.HEIC") == "/p/Holiday.mov")
        #expect(joined.removed == [clipID] && joined.updated == [still])
        // The attached clip renamed away: listed again, the still without motion.
        list.apply([.moved(from: "/p/Holiday.mov", to: file("/p/other.mov"))])
        #expect(listed(list) == ["/p/holiday.HEIC", "/p/IMG_1.MOV", "/p/other.mov"] && motion(list, "/p/holiday.HEIC") == nil)
        // The still renamed back to its clip's name.
        list.apply([.moved(from: "/p/holiday.HEIC", to: file("/p/IMG_1.HEIC"))])
        #expect(listed(list) == ["/p/IMG_1.HEIC", "/p/other.mov"] && motion(list, "/p/IMG_1.HEIC") == "/p/IMG_1.MOV")
        #expect(list.photo(at: "/p/IMG_1.HEIC")?.id == still)
        // A folder renamed: the pair moves together and stays one.
        list.apply([.movedDirectory(from: "/p", to: "/r"), .added(file("/r/IMG_1.HEIC")), .added(file("/r/IMG_1.MOV")),
                    .added(file("/r/other.mov"))])
        #expect(listed(list) == ["/r/IMG_1.HEIC", "/r/other.mov"] && motion(list, "/r/IMG_1.HEIC") == "/r/IMG_1.MOV")
        #expect(list.allFiles.map(\.path.description).sorted() == ["/r/IMG_1.HEIC", "/r/IMG_1.MOV", "/r/other.mov"])
        // Then removed with everything in it.
        list.apply([.removedDirectory("/r")])
        #expect(list.count == 0 && list.allFiles.isEmpty)
        list.apply([.added(file("/r/IMG_1.MOV"))])
        #expect(listed(list) == ["/r/IMG_1.MOV"], "nothing of the old pair is left to attach to")
    }

    @Test("identifiers that differ split the pair until a half is rewritten; stale refusals do nothing")
    func refusals() {
        let list = PhotoList()
        list.add([file("/p/IMG_1.HEIC"), file("/p/IMG_1.MOV")])
        let pair = MotionPair(still: "/p/IMG_1.HEIC", clip: "/p/IMG_1.MOV")
        #expect(list.takeUnconfirmedPairs() == [pair])
        let split = list.refusePair(pair)
        #expect(listed(list) == ["/p/IMG_1.HEIC", "/p/IMG_1.MOV"] && motion(list, "/p/IMG_1.HEIC") == nil)
        #expect(split.inserted.count == 1 && split.updated == [list.photo(at: "/p/IMG_1.HEIC")!.id])
        // A rescan finding the same files keeps them apart.
        #expect(list.diff(against: list.allFiles).isEmpty)
        list.apply([.added(file("/p/IMG_1.HEIC"))])
        #expect(listed(list) == ["/p/IMG_1.HEIC"] && motion(list, "/p/IMG_1.HEIC") == "/p/IMG_1.MOV",
                "the still rewritten: compared again")
        #expect(list.takeUnconfirmedPairs() == [pair])
        // A refusal of a pair that is no longer one changes nothing.
        #expect(list.refusePair(MotionPair(still: "/p/other.HEIC", clip: "/p/IMG_1.MOV")).isEmpty)
        list.apply([.removed("/p/IMG_1.MOV")])
        #expect(list.refusePair(pair).isEmpty && listed(list) == ["/p/IMG_1.HEIC"])
    }

    @Test("a rescan's diff and a snapshot's files pair the same way, and a diff keeps the attached clip")
    func rescanAndSnapshot() throws {
        let files = [file("/p/IMG_1.HEIC"), file("/p/IMG_1.MOV"), file("/p/IMG_2.MOV")]
        let list = PhotoList()
        list.add(files)
        #expect(list.diff(against: files).isEmpty, "the attached clip counts as present")
        let removed = list.diff(against: [file("/p/IMG_1.HEIC"), file("/p/IMG_2.MOV")])
        #expect(removed == [.removed("/p/IMG_1.MOV")])
        list.apply(removed)
        #expect(motion(list, "/p/IMG_1.HEIC") == nil)

        // A listing snapshot keeps the files as found (types included), and pairs come back from it.
        let snapshot = ListingSnapshot(scannedAt: 1, roots: ["/p"], hasCaptureDates: false, directories: [], files: files)
        let decoded = try ListingSnapshot.decode(snapshot.encoded())
        #expect(decoded.files == files)
        let restored = PhotoList()
        restored.add(decoded.files)
        #expect(listed(restored) == ["/p/IMG_1.HEIC", "/p/IMG_2.MOV"] && motion(restored, "/p/IMG_1.HEIC") == "/p/IMG_1.MOV")
    }

    @Test("the date sort and a custom order place the pair by its still")
    func orders() {
        let list = PhotoList(order: .dateTaken)
        list.add([file("/p/a.jpg", mtime: 50), file("/p/IMG_1.HEIC", mtime: 10, taken: 100),
                  file("/p/IMG_1.MOV", mtime: 1), file("/p/z.jpg", mtime: 200)])
        #expect(listed(list) == ["/p/a.jpg", "/p/IMG_1.HEIC", "/p/z.jpg"], "the clip's own older time plays no part")
        list.move(from: 1, to: 0)
        #expect(listed(list) == ["/p/IMG_1.HEIC", "/p/a.jpg", "/p/z.jpg"])
        // The clip leaves and comes back: the still keeps its place; the pair is still one item.
        list.apply([.removed("/p/IMG_1.MOV")])
        list.apply([.added(file("/p/IMG_1.MOV", mtime: 1))])
        #expect(listed(list) == ["/p/IMG_1.HEIC", "/p/a.jpg", "/p/z.jpg"] && motion(list, "/p/IMG_1.HEIC") == "/p/IMG_1.MOV")
        // The still leaves: its clip is listed by its own date, after the ranked photos.
        list.apply([.removed("/p/IMG_1.HEIC")])
        #expect(listed(list) == ["/p/a.jpg", "/p/z.jpg", "/p/IMG_1.MOV"])
    }

    @Test("names match by folder and stem, ASCII case aside; keys agree with that")
    func names() {
        let same: [(RawPath, RawPath)] = [("/p/IMG_1.HEIC", "/p/img_1.mov"), ("IMG_1.JPG", "IMG_1.MOV"), ("/p/a.b.jpg", "/p/A.B.MOV")]
        for (a, b) in same {
            #expect(LivePhotoName.sameName(a, b), "\(a) \(b)")
            #expect(LivePhotoName.key(of: a) == LivePhotoName.key(of: b), "\(a) \(b)")
        }
        let different: [(RawPath, RawPath)] = [("/p/IMG_1.HEIC", "/q/IMG_1.MOV"), ("/p/IMG_10.HEIC", "/p/IMG_1.MOV"),
                                               ("/P/IMG_1.HEIC", "/p/IMG_1.MOV"), ("/p/\u{C4}.heic", "/p/\u{E4}.mov"),
                                               ("/p/IMG_1.HEIC", "/p/IMG_1.HEIC.MOV")]
        for (a, b) in different { #expect(!LivePhotoName.sameName(a, b), "\(a) \(b)") }
        #expect(LivePhotoName.key(of: "/p/.mov") == nil && LivePhotoName.key(of: "/p/noext") == nil)
    }

    @Test("a HEIC and a JPEG of one name: the first by name takes the clip, the other has it when the first goes")
    func twoStills() {
        let list = PhotoList()
        list.add([file("/p/IMG_1.HEIC"), file("/p/IMG_1.JPG"), file("/p/IMG_1.MOV")])
        #expect(listed(list) == ["/p/IMG_1.HEIC", "/p/IMG_1.JPG"])
        #expect(motion(list, "/p/IMG_1.HEIC") == "/p/IMG_1.MOV" && motion(list, "/p/IMG_1.JPG") == nil)
        list.apply([.removed("/p/IMG_1.HEIC")])
        #expect(listed(list) == ["/p/IMG_1.JPG"] && motion(list, "/p/IMG_1.JPG") == "/p/IMG_1.MOV")
    }
}
