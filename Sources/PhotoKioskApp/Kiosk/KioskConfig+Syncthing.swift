extension KioskConfig {
    /// The frame's own Syncthing (the phone's way in, docs/syncthing.md), asked for the photo
    /// folder's state so the phone page and `doctor` can say whether the phone's photos are here.
    /// Off unless `enabled`; the API key is read from `apiKeyFile` and never shown, logged or sent
    /// anywhere but to that Syncthing.
    public struct Syncthing: Equatable, Sendable {
        public var enabled: Bool = false
        /// Syncthing's GUI/REST address; loopback only (the key must not cross a network).
        public var apiAddress: String = "http://127.0.0.1:8384"
        /// The file holding the API key (Syncthing's `<apikey>`), readable by the kiosk's user.
        public var apiKeyFile: String? = nil
        /// The id of the folder the phone sends to (Syncthing's folder ID, not its label).
        public var folderID: String? = nil
        public init() {}

        /// The parsed `apiAddress`; nil when it is not a loopback http:// address.
        public var address: SyncthingAPIAddress? { SyncthingAPIAddress(parsing: apiAddress) }

        mutating func normalize() {
            if apiKeyFile == "" { apiKeyFile = nil }
            if folderID == "" { folderID = nil }
        }
    }
}

/// Syncthing's REST address from "http://HOST:PORT" where HOST is 127.0.0.1, localhost or [::1]:
/// the kiosk asks only a Syncthing on its own computer (plain HTTP, the key in a header).
public struct SyncthingAPIAddress: Equatable, Sendable {
    public var host: String
    public var port: Int

    public init?(parsing text: String) {
        guard text.hasPrefix("http://") else { return nil }
        var rest = text.dropFirst(7)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let host: Substring
        let portText: Substring
        if rest.hasPrefix("[::1]:") {
            host = "::1"
            portText = rest.dropFirst(6)
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon] == "localhost" ? "127.0.0.1" : rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            return nil
        }
        guard host == "127.0.0.1" || host == "::1", let port = Int(portText), (1...65535).contains(port) else { return nil }
        self.host = String(host)
        self.port = port
    }
}
