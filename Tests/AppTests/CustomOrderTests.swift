import Testing
import Glibc
@testable import PhotoKioskApp
import TestSupport
import SystemAccess

@Suite struct CustomOrderTests {
    let scratch = ScratchDirectory()

    func temporaryDirectory() -> String { scratch.newFolder("order") }

    @Test func arrangeKeepsSavedOrderDropsRemovedAppendsAdded() {
        let order = CustomOrder(paths: ["c", "gone", "a", "b"])
        #expect(order.arrange(["a", "b", "c", "d", "e"]) == ["c", "a", "b", "d", "e"])
        #expect(order.arrange([]) == [])
        #expect(CustomOrder(paths: []).arrange(["x", "y"]) == ["x", "y"])
    }

    @Test func roundTripThroughAFile() throws {
        let dir = temporaryDirectory()
        let path = dir + "/order"
        let order = CustomOrder(paths: ["/p/b.jpg", "/p/a b.jpg", "/p/ü.png"])
        try order.save(to: path)
        #expect(CustomOrder.load(from: path) == order)
        #expect(CustomOrder.load(from: dir + "/missing") == nil)
    }

    /// A crash at any step before the rename leaves the old order; no temporary file is left.
    @Test(arguments: [AtomicFile.Step.createTemporary, .write, .syncFile, .rename])
    func crashBeforeRenameKeepsTheOldOrder(step: AtomicFile.Step) throws {
        let dir = temporaryDirectory()
        let path = dir + "/order"
        let old = CustomOrder(paths: ["1", "2", "3"])
        try old.save(to: path)
        let new = CustomOrder(paths: ["3", "2", "1"])
        #expect(throws: AtomicFile.WriteError.self) { try new.save(to: path, failing: { $0 == step }) }
        #expect(CustomOrder.load(from: path) == old)
        let entries = try listDirectory(dir)
        #expect(entries == ["order"])
    }

    @Test func damagedFileIsNotAnOrder() {
        #expect(CustomOrder(serialized: Array("garbage\n1\n2".utf8)) == nil)
        #expect(CustomOrder(serialized: []) == nil)
        #expect(CustomOrder(serialized: Array((CustomOrder.header + "\n").utf8)) == CustomOrder(paths: []))
    }

    func listDirectory(_ path: String) throws -> [String] { directoryNames(path) }
}
