import SystemAccess
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

extension PyramidCache {
    /// One cached pyramid folder.
    public struct Entry: Sendable {
        public var folder: String
        public var bytes: Int
        /// When it was last built or used (the descriptor's modification time).
        public var lastUsed: Int
    }

    /// Every complete pyramid in the cache, oldest first.
    public func entries() -> [Entry] {
        guard let names = FileIO.directoryEntries(RawPath(directory)) else { return [] }
        var result: [Entry] = []
        for name in names {
            let folder = directory + "/" + String(decoding: name, as: UTF8.self)
            guard let info = try? FileSystemCalls.status(FilePath(folder + "/image.dzi")) else { continue }
            result.append(Entry(folder: folder, bytes: Self.treeBytes(folder), lastUsed: Int(info.st_mtim.tv_sec)))
        }
        return result.sorted { ($0.lastUsed, $0.folder) < ($1.lastUsed, $1.folder) }
    }

    /// Deletes the least recently used pyramids until the cache holds at most `maxBytes`;
    /// `keeping` (a descriptor path in use) is never deleted. Returns the bytes freed.
    @discardableResult
    public func prune(toBytes maxBytes: Int, keeping: String? = nil) -> Int {
        let all = entries()
        var total = all.reduce(0) { $0 + $1.bytes }
        var freed = 0
        for entry in all where total > maxBytes {
            if let keeping, keeping.hasPrefix(entry.folder + "/") { continue }
            Self.removeTree(entry.folder)
            total -= entry.bytes
            freed += entry.bytes
        }
        return freed
    }

    /// Marks a pyramid as just used (pruning keeps recently viewed photos).
    public func touch(_ descriptorPath: String) {
        try? FileSystemCalls.touch(FilePath(descriptorPath))
    }

    static func treeBytes(_ path: String) -> Int {
        guard let info = FileIO.linkStatus(RawPath(path)) else { return 0 }
        guard info.type == .directory else { return Int(info.size) }
        return (FileIO.directoryEntries(RawPath(path)) ?? []).reduce(0) {
            $0 + treeBytes(path + "/" + String(decoding: $1, as: UTF8.self))
        }
    }

    static func removeTree(_ path: String) {
        guard let info = FileIO.linkStatus(RawPath(path)) else { return }
        if info.type == .directory {
            for name in FileIO.directoryEntries(RawPath(path)) ?? [] {
                removeTree(path + "/" + String(decoding: name, as: UTF8.self))
            }
            try? FileSystemCalls.removeDirectory(FilePath(path))
        } else {
            try? FileSystemCalls.unlink(FilePath(path))
        }
    }
}
