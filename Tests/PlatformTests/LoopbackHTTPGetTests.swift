import Glibc
import Testing
@testable import Platform

/// Issue 34 item 3: the one HTTP client (Syncthing's REST API on loopback), run on the event loop:
/// a real exchange with a listener the test makes, a refused connection, an answer too large,
/// and the answer's head read as hostile input.
/// A listener on 127.0.0.1 that answers one connection with `answer` on a thread and hands
/// back the request it read.
private final class OneShotServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private var thread: pthread_t?
    private(set) var request = ""
    private let answer: [UInt8]

    init(answer: [UInt8]) throws {
        self.answer = answer
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        try #require(bound == 0 && listen(fd, 1) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let box = Unmanaged.passRetained(self).toOpaque()
        var handle = pthread_t()
        pthread_create(&handle, nil, { raw in
            let server = Unmanaged<OneShotServer>.fromOpaque(raw!).takeRetainedValue()
            server.serve()
            return nil
        }, box)
        thread = handle
    }

    private func serve() {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var got: [UInt8] = []
        while !(got.count >= 4 && Array(got.suffix(4)) == [13, 10, 13, 10]) {
            let n = read(connection, &buffer, buffer.count)
            if n <= 0 { break }
            got += buffer[0..<n]
        }
        request = String(decoding: got, as: UTF8.self)
        _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(connection)
    }

    func finish() {
        if let thread { pthread_join(thread, nil) }
        close(listener)
    }
}

@Suite struct LoopbackHTTPGetTests {
    func get(port: UInt16, maximumBytes: Int = 4096) throws -> LoopbackHTTPGet.Outcome? {
        let loop = try EventLoop(signals: [])
        var outcome: LoopbackHTTPGet.Outcome?
        let request = LoopbackHTTPGet(loop: loop, port: port, ipv6: false, path: "/rest/db/status?folder=camera",
                                      headers: [("X-API-Key", "k3y")], maximumBytes: maximumBytes, timeout: 5) { outcome = $0 }
        let deadline = loop.now + 10
        while outcome == nil, loop.now < deadline { _ = try loop.runOnce(timeout: 1) }
        _ = request
        return outcome
    }

    @Test func getsTheBodyAndSendsTheKeyInAHeader() throws {
        let server = try OneShotServer(answer: Array("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{\"state\":\"idle\"}".utf8))
        let outcome = try get(port: server.port)
        server.finish()
        #expect(outcome == .body(Array("{\"state\":\"idle\"}".utf8)))
        #expect(server.request.hasPrefix("GET /rest/db/status?folder=camera HTTP/1.0\r\n"))
        #expect(server.request.contains("\r\nX-API-Key: k3y\r\n"))
    }

    @Test func aTooLargeAnswerIsRefused() throws {
        let server = try OneShotServer(answer: Array("HTTP/1.0 200 OK\r\n\r\n".utf8) + [UInt8](repeating: 0x61, count: 100_000))
        let outcome = try get(port: server.port, maximumBytes: 8192)
        server.finish()
        #expect(outcome == .failed("answer larger than 8 KB"))
    }

    @Test func aRefusedConnectionIsWorded() throws {
        // A port just released by a listener: nothing listens there now.
        let probe = try OneShotServer(answer: [])
        let port = probe.port
        let wake = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(wake, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        close(wake)
        probe.finish()
        #expect(try get(port: port) == .failed("connection refused (is it running?)"))
    }

    @Test func theAnswersHeadIsChecked() {
        #expect(LoopbackHTTPGet.outcome(of: Array("HTTP/1.1 200 OK\r\nA: b\r\n\r\nbody".utf8)) == .body(Array("body".utf8)))
        #expect(LoopbackHTTPGet.outcome(of: Array("HTTP/1.0 403 Forbidden\r\n\r\nCSRF Error".utf8)) == .failed("answered 403 (is the API key right?)"))
        #expect(LoopbackHTTPGet.outcome(of: Array("HTTP/1.0 500 Oops\r\n\r\n".utf8)) == .failed("answered 500"))
        #expect(LoopbackHTTPGet.outcome(of: []) == .failed("closed without an answer"))
        #expect(LoopbackHTTPGet.outcome(of: Array("HTTP/1.0 200 OK\r\nA: b\r\n".utf8)) == .failed("not an HTTP answer"))
        #expect(LoopbackHTTPGet.outcome(of: Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)) == .failed("not an HTTP answer"))
        #expect(LoopbackHTTPGet.outcome(of: Array("HTTP/1.0 99999999999999999999 X\r\n\r\n".utf8)) == .failed("not an HTTP answer"))
    }
}
