extension KioskConfig {
    /// The MQTT connection (Home Assistant discovery, fleet commands). Off unless `url` is set.
    public struct MQTT: Equatable, Sendable {
        /// "mqtt://HOST[:PORT]" or "mqtts://HOST[:PORT]" (TLS); nil: no MQTT at all.
        public var url: String? = nil
        public var username: String? = nil
        /// Prefer `passwordFile` (a file only the kiosk's user can read) to a password here.
        public var password: String? = nil
        public var passwordFile: String? = nil
        /// The frame's name in topics and in Home Assistant; nil: the host name.
        public var id: String? = nil
        public var discoveryPrefix: String = "homeassistant"
        /// CA certificate for mqtts://; nil: the system's certificates.
        public var caFile: String? = nil
        public init() {}

        /// Empty strings mean "not set", so the example file can name every option.
        mutating func normalize() {
            for path in [\Self.url, \.username, \.password, \.passwordFile, \.id, \.caFile] where self[keyPath: path] == "" {
                self[keyPath: path] = nil
            }
        }

        /// The parsed `url`; nil when it is not set or not valid (the schema's check of `mqtt.url` says why).
        public var address: MQTTAddress? { url.flatMap(MQTTAddress.init(parsing:)) }

        static func isTopicWord(_ s: String) -> Bool {
            !s.isEmpty && s.count <= 64 && s.unicodeScalars.allSatisfy { $0.properties.isAlphabetic && $0.isASCII || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
        }

        static func isTopicPath(_ s: String) -> Bool {
            !s.isEmpty && !s.contains("+") && !s.contains("#") && !s.hasPrefix("/") && !s.hasSuffix("/")
        }
    }
}

/// A broker's address from "mqtt://HOST[:PORT]" (1883) or "mqtts://HOST[:PORT]" (8883).
public struct MQTTAddress: Equatable, Sendable {
    public var host: String
    public var port: Int
    public var useTLS: Bool

    public init?(parsing url: String) {
        let tls: Bool
        let rest: Substring
        if url.hasPrefix("mqtt://") { tls = false; rest = url.dropFirst(7) }
        else if url.hasPrefix("mqtts://") { tls = true; rest = url.dropFirst(8) }
        else { return nil }
        var host = rest
        var port = tls ? 8883 : 1883
        // [IPv6]:port, host:port, or a bare host.
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = Int(after.dropFirst()) else { return nil }
                port = p
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let p = Int(rest[rest.index(after: colon)...]) else { return nil }
            port = p
        }
        guard !host.isEmpty, !host.contains("/"), !host.contains("@"), (1...65535).contains(port) else { return nil }
        self.host = String(host)
        self.port = port
        useTLS = tls
    }
}
