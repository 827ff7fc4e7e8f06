/// What Syncthing's `GET /rest/db/status?folder=ID` says of one folder: its state and how much
/// it still needs. Read from network input, so every field is checked for its type and range and
/// anything else is refused with a reason (never trusted, never a crash).
public struct SyncthingFolderStatus: Equatable, Sendable {
    /// Syncthing's `state`: "idle", "scanning", "syncing", "sync-preparing", "error", …
    public var state: String
    public var needFiles: Int
    public var needBytes: Int
    /// Syncthing's `error` (or `pullErrors` count) when the folder is in trouble; "" when none.
    public var error: String

    /// Largest answer read: a real one is about 1.5 KB; anything bigger is not Syncthing's.
    public static let maximumBytes = 64 * 1024

    public init(state: String, needFiles: Int, needBytes: Int, error: String = "") {
        self.state = state
        self.needFiles = needFiles
        self.needBytes = needBytes
        self.error = error
    }

    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    public init(parsing bytes: [UInt8]) throws(Refusal) {
        guard bytes.count <= Self.maximumBytes else { throw Refusal(description: "answer larger than \(Self.maximumBytes) bytes") }
        let value: JSONValue
        do { value = try JSONReader.value(from: bytes, maximumDepth: 8) } catch { throw Refusal(description: error.description) }
        guard case .object(let members) = value else { throw Refusal(description: "the answer is not an object") }
        func member(_ name: String) -> JSONValue? { members.first(where: { $0.0 == name })?.1 }
        guard case .string(let state)? = member("state"), (1...64).contains(state.utf8.count),
              state.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || $0 == "-" }) else {
            throw Refusal(description: "no \"state\" word")
        }
        func count(_ name: String) throws(Refusal) -> Int {
            guard case .integer(let n)? = member(name), n >= 0, n <= Int64(Int.max) else {
                throw Refusal(description: "\"\(name)\" is not a count")
            }
            return Int(n)
        }
        var error = ""
        if case .string(let text)? = member("error") { error = String(text.prefix(200)) }
        self.init(state: state, needFiles: try count("needFiles"), needBytes: try count("needBytes"), error: error)
    }
}
