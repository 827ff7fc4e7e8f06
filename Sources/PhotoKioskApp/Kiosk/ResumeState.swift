import Glibc
import Imaging
import Logging
import SystemAccess
import SystemPackage

/// What the kiosk was showing, so a restart (power cut, crash, update) reopens the same place.
public struct ResumeState: Equatable, Sendable {
    public var screen: KioskScreen
    /// The slideshow's photo on screen, to continue from.
    public var photo: RawPath?
    public var inSlideshow: Bool

    public init(screen: KioskScreen = .grid(scrollOffset: 0), photo: RawPath? = nil, inSlideshow: Bool = false) {
        self.screen = screen
        self.photo = photo
        self.inSlideshow = inSlideshow
    }

    static let header = "photokiosk-resume 1"

    /// A small line-based text: one "key value" a line; paths as `RawPath.escapedLine`, so a
    /// newline cannot break the format and a name that is not UTF-8 comes back byte for byte.
    public func encoded() -> String {
        var lines = [Self.header]
        switch screen {
        case .grid(let offset): lines += ["screen grid", "offset \(offset)"]
        case .album(let index): lines += ["screen album", "index \(index)"]
        case .photo(let path): lines += ["screen photo", "path \(path.escapedLine)"]
        }
        if let photo { lines.append("photo \(photo.escapedLine)") }
        lines.append("slideshow \(inSlideshow ? 1 : 0)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Parses `encoded()` output; nil with the reason when the text is not a complete state.
    public static func decode(_ text: String) -> Result<ResumeState, Corrupt> {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(header) else { return .failure(Corrupt("missing header line")) }
        guard text.hasSuffix("\n") else { return .failure(Corrupt("truncated")) }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let space = line.firstIndex(of: " ") else { return .failure(Corrupt("malformed line \"\(line)\"")) }
            fields[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        let screen: KioskScreen
        switch fields["screen"] {
        case "grid":
            guard let offset = fields["offset"].flatMap(Double.init), offset.isFinite else {
                return .failure(Corrupt("bad grid offset"))
            }
            screen = .grid(scrollOffset: offset)
        case "album":
            guard let index = fields["index"].flatMap({ Int($0) }), index >= 0 else {
                return .failure(Corrupt("bad album index"))
            }
            screen = .album(index: index)
        case "photo":
            guard let path = fields["path"].flatMap(RawPath.init(escapedLine:)) else { return .failure(Corrupt("bad photo path")) }
            screen = .photo(path: path)
        default:
            return .failure(Corrupt("unknown screen"))
        }
        var photo: RawPath?
        if let raw = fields["photo"] {
            guard let p = RawPath(escapedLine: raw) else { return .failure(Corrupt("bad slideshow photo")) }
            photo = p
        }
        guard let slideshow = fields["slideshow"], slideshow == "0" || slideshow == "1" else {
            return .failure(Corrupt("bad slideshow flag"))
        }
        return .success(ResumeState(screen: screen, photo: photo, inSlideshow: slideshow == "1"))
    }

    public struct Corrupt: Error, Equatable, Sendable {
        public var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}

/// Saves and loads the resume state file atomically. Loading never fails: a missing file gives
/// the defaults silently, a corrupt one gives the defaults and one warning.
public struct ResumeStore: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    public func save(_ state: ResumeState, health: StorageHealth = .shared,
                     failing: (AtomicFile.Step) -> Bool = { _ in false }) throws(AtomicFile.WriteError) {
        _ = AtomicFile.makeDirectories(AtomicFile.directoryOf(path))  // a failure shows in the write
        try AtomicFile.write(Array(state.encoded().utf8), to: path, health: health, failing: failing)
    }

    /// The saved state, and the reason it was ignored when the file was there but unusable.
    public func load() -> (state: ResumeState, problem: String?) {
        guard let bytes = AtomicFile.read(path, limit: 64 * 1024) else {
            let exists = FileSystemCalls.exists(FilePath(path))
            return (ResumeState(), exists ? "\(path) is unreadable or too large; starting from the grid" : nil)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return (ResumeState(), "\(path) is corrupt (not UTF-8); starting from the grid")
        }
        switch ResumeState.decode(text) {
        case .success(let state): return (state, nil)
        case .failure(let corrupt): return (ResumeState(), "\(path) is corrupt (\(corrupt.reason)); starting from the grid")
        }
    }

    public func load(logger: Logger) -> ResumeState {
        let (state, problem) = load()
        if let problem { logger.warning("\(problem)") }
        return state
    }
}
