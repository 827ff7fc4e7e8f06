/// A person's own order of the photos (made by dragging thumbnails), stored as one path per line.
///
/// The saved order is a preference, not the library: photos added since are appended in the
/// library's order, removed ones are dropped, so it keeps working while the folder changes.
public struct CustomOrder: Hashable, Sendable {
    public private(set) var paths: [String]

    public init(paths: [String]) {
        self.paths = paths
    }

    /// `library` (in its sort order) rearranged by this order: known paths first in the saved
    /// order, then the paths the saved order has not seen, in library order.
    public func arrange(_ library: [String]) -> [String] {
        let present = Set(library)
        var seen = Set<String>()
        var result: [String] = []
        result.reserveCapacity(library.count)
        for p in paths where present.contains(p) && seen.insert(p).inserted {
            result.append(p)
        }
        for p in library where seen.insert(p).inserted {
            result.append(p)
        }
        return result
    }

    /// File format: a header line, then one path per line. Paths containing a newline cannot be
    /// stored and are left to the library order.
    static let header = "# photokiosk custom order v1"

    public func serialized() -> String {
        ([Self.header] + paths.filter { !$0.contains("\n") }).joined(separator: "\n") + "\n"
    }

    /// Parses a saved order; nil when the text is not one (a different or damaged file).
    public init?(serialized text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first == Self.header else { return nil }
        lines.removeFirst()
        if lines.last == "" { lines.removeLast() }
        self.paths = lines.filter { !$0.isEmpty }
    }

    /// Saves atomically: after a crash the previous order is intact.
    public func save(to path: String, failing: (AtomicFile.Step) -> Bool = { _ in false }) throws(AtomicFile.WriteError) {
        try AtomicFile.write(Array(serialized().utf8), to: path, failing: failing)
    }

    /// The saved order, or nil when there is none or it is unreadable as an order.
    public static func load(from path: String) -> CustomOrder? {
        guard let bytes = AtomicFile.read(path, limit: 64 << 20) else { return nil }
        return CustomOrder(serialized: String(decoding: bytes, as: UTF8.self))
    }
}
