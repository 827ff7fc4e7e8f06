import Glibc

extension KioskConfig {
    /// `[remote]`: the phone page and JSON API. Off unless `listen` is set; never without a token.
    public struct Remote: Equatable, Sendable {
        /// nil: nothing listens on the network.
        public var listen: ListenAddress? = nil
        /// The shared secret every request must carry (Bearer header, or the page's login).
        public var token: String = ""
        /// Where uploads go; nil (or "" in the file): the first photo folder.
        public var uploadFolder: String? = nil
        /// Largest photo accepted, MB.
        public var maxUploadMB: Int = 64
        /// Space kept free on the upload folder's disk, MB: an upload that would eat into it is refused.
        public var reserveMB: Int = 256
        public init() {}

        /// The shortest token accepted: 16 characters of a random token are beyond guessing over
        /// a network that slows down repeated failures.
        public static let minimumTokenLength = 16

        /// Why the token cannot protect the server, or nil.
        public static func tokenProblem(_ token: String) -> String? {
            if token.isEmpty {
                return "is needed when remote.listen is set: without it the remote page would be open to anyone on the network (make one with: head -c 18 /dev/urandom | base64)"
            }
            if token.count < minimumTokenLength {
                return "is \(token.count) characters; at least \(minimumTokenLength) are needed (make one with: head -c 18 /dev/urandom | base64)"
            }
            // RFC 6750 b64token characters, so it travels in an Authorization header unchanged.
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~+/=")
            if let bad = token.first(where: { !allowed.contains($0) }) {
                return "contains \"\(bad)\"; use letters, digits and - . _ ~ + / = only"
            }
            if let weakness = tokenWeakness(token) {
                return "does not look random (\(weakness)); a word, a pattern or a run of keys can be guessed (make one with: head -c 18 /dev/urandom | base64)"
            }
            return nil
        }

        /// Least estimated entropy of a token, bits: the characters' Shannon entropy times the
        /// length (a random 16-character token of the allowed characters has about 60).
        public static let minimumTokenBits = 40.0

        /// Why `token` does not look random, or nil: too few distinct characters, too little
        /// estimated entropy, or mostly repeats and runs ("aaaa", "abcd", "1234").
        static func tokenWeakness(_ token: String) -> String? {
            let bytes = Array(token.utf8)
            var counts: [UInt8: Int] = [:]
            for byte in bytes { counts[byte, default: 0] += 1 }
            if counts.count < 8 { return "only \(counts.count) different characters" }
            let n = Double(bytes.count)
            let bitsPerCharacter = counts.values.reduce(0.0) { sum, count in
                let p = Double(count) / n
                return sum - p * log2(p)
            }
            let bits = bitsPerCharacter * n
            if bits < minimumTokenBits { return "about \(Int(bits)) bits of entropy, at least \(Int(minimumTokenBits)) are needed" }
            let steps = zip(bytes, bytes.dropFirst()).filter { abs(Int($0.1) - Int($0.0)) <= 1 }.count
            if Double(steps) > 0.6 * Double(bytes.count - 1) { return "\(steps) of its \(bytes.count - 1) steps repeat a character or go to the next one" }
            return nil
        }
    }

    /// "ADDRESS:PORT" with an IP literal: "0.0.0.0:8080", "127.0.0.1:8080", "[::]:8080".
    public struct ListenAddress: Equatable, Sendable, CustomStringConvertible {
        public var host: String
        public var port: UInt16

        public init(host: String, port: UInt16) {
            self.host = host
            self.port = port
        }

        public init?(parsing text: String) {
            guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port > 0 else { return nil }
            var host = String(text[..<colon])
            if host.hasPrefix("[") && host.hasSuffix("]") {
                host = String(host.dropFirst().dropLast())
                guard Self.isAddress(host, family: AF_INET6) else { return nil }
            } else {
                guard Self.isAddress(host, family: AF_INET) else { return nil }
            }
            self.init(host: host, port: port)
        }

        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

        private static func isAddress(_ host: String, family: Int32) -> Bool {
            var buffer = [UInt8](repeating: 0, count: 16)
            return inet_pton(family, host, &buffer) == 1
        }

        public static let formatHint = "is not an address like \"0.0.0.0:8080\", \"127.0.0.1:8080\" or \"[::]:8080\" (an IP address and a port from 1 to 65535)"
    }
}
