import Imaging
import SystemAccess

/// A person's own order of the photos (made by dragging thumbnails), stored as one path per line.
///
/// The saved order is a preference, not the library: photos added since are appended in the
/// library's order, removed ones are dropped, so it keeps working while the folder changes.
public struct CustomOrder: Hashable, Sendable {
    public private(set) var paths: [RawPath]

    public init(paths: [RawPath]) {
        self.paths = paths
    }

    /// `library` (in its sort order) rearranged by this order: known paths first in the saved
    /// order, then the paths the saved order has not seen, in library order.
    public func arrange(_ library: [RawPath]) -> [RawPath] {
        let present = Set(library)
        var seen = Set<RawPath>()
        var result: [RawPath] = []
        result.reserveCapacity(library.count)
        for p in paths where present.contains(p) && seen.insert(p).inserted {
            result.append(p)
        }
        for p in library where seen.insert(p).inserted {
            result.append(p)
        }
        return result
    }

    /// File format: a header line, then one path per line as `RawPath.escapedLine`, so any
    /// name, newline or not UTF-8, comes back byte for byte. Version 1 files (the path's
    /// bytes as they are, no newlines) are still read.
    static let header = "# photokiosk custom order v2"
    static let headerV1 = "# photokiosk custom order v1"

    public func serialized() -> String {
        ([Self.header] + paths.map(\.escapedLine)).joined(separator: "\n") + "\n"
    }

    /// Parses a saved order; nil when the bytes are not one (a different or damaged file).
    public init?(serialized bytes: [UInt8]) {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        guard let first = lines.first else { return nil }
        lines.removeFirst()
        if lines.last == [] { lines.removeLast() }
        switch first {
        case Array(Self.header.utf8):
            var paths: [RawPath] = []
            for line in lines where !line.isEmpty {
                guard let text = String(validating: line, as: UTF8.self), let path = RawPath(escapedLine: text) else { return nil }
                paths.append(path)
            }
            self.paths = paths
        case Array(Self.headerV1.utf8):
            self.paths = lines.filter { !$0.isEmpty }.map { RawPath(bytes: $0) }
        default:
            return nil
        }
    }

    /// Saves atomically: after a crash the previous order is intact.
    public func save(to path: String, failing: (AtomicFile.Step) -> Bool = { _ in false }) throws(AtomicFile.WriteError) {
        try AtomicFile.write(Array(serialized().utf8), to: path, failing: failing)
    }

    /// The saved order, or nil when there is none or it is unreadable as an order.
    public static func load(from path: String) -> CustomOrder? {
        guard let bytes = AtomicFile.read(path, limit: 64 << 20) else { return nil }
        return CustomOrder(serialized: bytes)
    }
}
