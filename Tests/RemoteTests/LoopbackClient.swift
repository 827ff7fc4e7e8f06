import Glibc

/// A deliberately plain HTTP/1.1 client over a loopback socket for the tests: it writes the
/// request bytes as given (or only the first `cutAfter` of them, then closes: a cut upload)
/// and reads the answer until the server closes the connection.
struct HTTPReply: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

enum LoopbackClient {
    /// A connected socket to the server from `source` (any 127.x.y.z is loopback), or nil.
    static func connectSocket(port: Int, source: String = "127.0.0.1", timeout: Double = 60) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        if source != "127.0.0.1" {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { close(fd); return nil }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); return nil }
        return fd
    }

    /// `bytes` as the whole request; the reply read until the server closes (or `timeout`).
    static func sendRaw(port: Int, _ bytes: [UInt8], source: String = "127.0.0.1", timeout: Double = 60) -> HTTPReply? {
        guard let fd = connectSocket(port: port, source: source, timeout: timeout) else { return nil }
        defer { close(fd) }
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        return readReply(fd)
    }

    static func readReply(_ fd: Int32) -> HTTPReply? {
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n <= 0 { break }
            reply += buffer[0..<n]
        }
        return parse(reply)
    }

    static func send(port: Int, method: String, path: String, headers: [(String, String)] = [], body: [UInt8] = [],
                     cutAfter: Int? = nil, beforeCut: () -> Void = {}, sendBeforeClose: Int = 0,
                     source: String = "127.0.0.1", timeout: Double = 60) -> HTTPReply? {
        guard let fd = connectSocket(port: port, source: source, timeout: timeout) else { return nil }
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let all = Array(head.utf8) + body
        func sendAll(_ bytes: ArraySlice<UInt8>) {
            var sent = 0
            while sent < bytes.count {
                let n = Array(bytes).withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                sent += n
            }
        }
        if let cutAfter {
            sendAll(all.prefix(cutAfter))
            beforeCut()
            // More bytes and the close at once: one burst for the server to read.
            sendAll(all.dropFirst(cutAfter).prefix(sendBeforeClose))
            return nil
        }
        sendAll(all[...])
        return readReply(fd)
    }

    static func parse(_ reply: [UInt8]) -> HTTPReply? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, reply.count - 3)).first(where: { Array(reply[$0..<$0 + 4]) == separator }) else { return nil }
        let lines = String(decoding: reply[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: " ")
        }
        return HTTPReply(status: status, headers: headers, body: Array(reply[(end + 4)...]))
    }
}

/// A multipart/form-data body with file parts (names as bytes).
struct MultipartBody {
    static let boundary = "----photokiosk-test-boundary-7d3f"
    var bytes: [UInt8] = []

    mutating func addFile(field: String = "photo", name: [UInt8], contentType: String = "image/jpeg", data: [UInt8]) {
        bytes += Array("--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"".utf8)
        bytes += name
        bytes += Array("\"\r\nContent-Type: \(contentType)\r\n\r\n".utf8)
        bytes += data
        bytes += Array("\r\n".utf8)
    }

    var finished: [UInt8] { bytes + Array("--\(Self.boundary)--\r\n".utf8) }
    static let contentType = ("Content-Type", "multipart/form-data; boundary=\(boundary)")
}

extension String {
    func components(separatedBy separator: String) -> [String] {
        var parts: [String] = []
        var rest = Substring(self)
        while let range = rest.firstRange(of: separator) {
            parts.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        parts.append(String(rest))
        return parts
    }

    func trimmingCharacters(in set: String) -> String {
        String(self.drop(while: { set.contains($0) }).reversed().drop(while: { set.contains($0) }).reversed())
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String { String(self).trimmingCharacters(in: set) }
}
