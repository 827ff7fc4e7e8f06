import Testing
import Imaging
@testable import PhotoKioskApp

/// The photo list under a custom order: saved places win, newcomers follow in name order,
/// removed photos simply disappear, and scan batches arriving in any order land in place.
@Suite struct ReorderPhotoListTests {
    func file(_ name: String, inode: UInt64) -> ScannedFile {
        ScannedFile(path: RawPath("/p/" + name), type: .jpeg, identity: FileIdentity(device: 1, inode: inode),
                    size: 100, modificationSeconds: 1000)
    }

    func names(_ list: PhotoList) -> [String] { list.photos.map { String($0.path.description.dropFirst(3)) } }

    @Test func moveForwardAndBackwardKeepsTheNewOrder() {
        let list = PhotoList()
        list.add((0..<6).map { file("\($0).jpg", inode: UInt64($0)) })
        list.move(from: 1, to: 4)
        #expect(names(list) == ["0.jpg", "2.jpg", "3.jpg", "4.jpg", "1.jpg", "5.jpg"])
        list.move(from: 5, to: 0)
        #expect(names(list) == ["5.jpg", "0.jpg", "2.jpg", "3.jpg", "4.jpg", "1.jpg"])
        #expect(list.hasCustomOrder)
        #expect(list.index(of: list.photos[5].id) == 5)
    }

    @Test func savedOrderAppliesToBatchesArrivingLaterAndNewcomersGoLast() {
        let list = PhotoList()
        list.setCustomOrder(["/p/c.jpg", "/p/gone.jpg", "/p/a.jpg", "/p/b.jpg"].map { RawPath($0) })
        list.add([file("b.jpg", inode: 2), file("e.jpg", inode: 5)])
        #expect(names(list) == ["b.jpg", "e.jpg"])
        list.add([file("d.jpg", inode: 4), file("a.jpg", inode: 1), file("c.jpg", inode: 3)])
        #expect(names(list) == ["c.jpg", "a.jpg", "b.jpg", "d.jpg", "e.jpg"])
        // The same result as CustomOrder.arrange over the whole library.
        let arranged = CustomOrder(paths: ["/p/c.jpg", "/p/gone.jpg", "/p/a.jpg", "/p/b.jpg"])
            .arrange(["/p/a.jpg", "/p/b.jpg", "/p/c.jpg", "/p/d.jpg", "/p/e.jpg"])
        #expect(list.photos.map(\.path) == arranged)
        list.apply([.removed(RawPath("/p/a.jpg")), .added(file("0.jpg", inode: 9))])
        #expect(names(list) == ["c.jpg", "b.jpg", "0.jpg", "d.jpg", "e.jpg"])
        list.apply([.moved(from: RawPath("/p/c.jpg"), to: file("z.jpg", inode: 3))])
        #expect(names(list) == ["z.jpg", "b.jpg", "0.jpg", "d.jpg", "e.jpg"])   // a rename keeps its place
        list.setCustomOrder(nil)
        #expect(names(list) == ["0.jpg", "b.jpg", "d.jpg", "e.jpg", "z.jpg"])
        #expect(!list.hasCustomOrder)
    }
}
