import SystemAccess
import SystemPackage

/// One HTTP GET to a service on this computer, run on the event loop without blocking it: a
/// non-blocking loopback connect, the request, the answer read as it arrives. Network input is
/// hostile, so the answer is bounded (`maximumBytes`, headers included) and the whole exchange
/// has a deadline. HTTP/1.0 on purpose: the server then sends the body as it is (no chunked
/// encoding) and closes, so the end of the answer is the end of the connection. Loopback only
/// (`LoopbackStreamSocket`): whatever headers it carries (an API key) never leave the computer.
public final class LoopbackHTTPGet {
    public enum Outcome: Equatable, Sendable {
        case body([UInt8])
        /// Why there is no body, in words for a status line ("connection refused", "answered 403").
        case failed(String)
    }

    private let loop: EventLoop
    private var socket: LoopbackStreamSocket?
    private var request: ArraySlice<UInt8>
    private var answer: [UInt8] = []
    private let maximumBytes: Int
    private var timer: EventLoop.TimerID?
    private var connected = false
    private var completion: ((Outcome) -> Void)?

    /// Starts `GET path` on `port` with `headers` (name, value); `completion` runs once, on the loop.
    public init(loop: EventLoop, port: UInt16, ipv6: Bool, path: String, headers: [(String, String)],
                maximumBytes: Int, timeout: Double, completion: @escaping (Outcome) -> Void) {
        self.loop = loop
        self.maximumBytes = maximumBytes
        self.completion = completion
        let host = ipv6 ? "[::1]" : "127.0.0.1"
        var text = "GET \(path) HTTP/1.0\r\nHost: \(host):\(port)\r\nAccept: application/json\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        request = ArraySlice((text + "\r\n").utf8)
        do {
            let socket = try LoopbackStreamSocket(port: port, ipv6: ipv6)
            self.socket = socket
            try loop.watchSocket(socket.descriptor, readable: { [weak self] in self?.readable() },
                                 writable: { [weak self] in self?.writable() })
            loop.setWantsWrite(socket.descriptor, true)
            timer = loop.addTimer(after: timeout) { [weak self] in
                self?.timer = nil
                self?.finish(.failed("no answer within \(Int(timeout)) s"))
            }
        } catch {
            // Reported from the loop, as every other outcome: the caller's state is set up by then.
            let reason = (error as? SystemError).map(Self.words) ?? "\(error)"
            timer = loop.addTimer(after: 0) { [weak self] in
                self?.timer = nil
                self?.finish(.failed(reason))
            }
        }
    }

    /// Stops the exchange without calling `completion` (the owner is going away).
    public func cancel() {
        completion = nil
        finish(.failed("cancelled"))
    }

    private func writable() {
        guard let socket else { return }
        if !connected {
            if let error = socket.pendingError() { return finish(.failed(Self.words(error))) }
            connected = true
        }
        do {
            let sent = try socket.send(request)
            request = request.dropFirst(sent)
        } catch { return finish(.failed(Self.words(error))) }
        if request.isEmpty { loop.setWantsWrite(socket.descriptor, false) }
    }

    private func readable() {
        guard let socket else { return }
        if !connected, let error = socket.pendingError() { return finish(.failed(Self.words(error))) }
        do {
            guard let bytes = try socket.receive(limit: 16 * 1024) else { return }
            if bytes.isEmpty { return finish(Self.outcome(of: answer)) }
            answer += bytes
            if answer.count > maximumBytes { finish(.failed("answer larger than \(maximumBytes / 1024) KB")) }
        } catch { finish(.failed(Self.words(error))) }
    }

    private func finish(_ outcome: Outcome) {
        if let timer { loop.cancelTimer(timer) }
        timer = nil
        if let socket { loop.unwatch(socket.descriptor) }
        socket = nil
        let done = completion
        completion = nil
        done?(outcome)
    }

    /// The body of a whole HTTP answer, or why there is none.
    static func outcome(of answer: [UInt8]) -> Outcome {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(answer.count - 3, 0)).first(where: { answer[$0..<$0 + 4].elementsEqual(separator) }) else {
            return .failed(answer.isEmpty ? "closed without an answer" : "not an HTTP answer")
        }
        let statusLine = answer[..<(answer.firstIndex(of: 13) ?? end)]
        let words = statusLine.split(separator: 32, maxSplits: 2)
        guard words.count >= 2, words[0].starts(with: Array("HTTP/1.".utf8)),
              let status = Int(String(decoding: words[1], as: UTF8.self)), (100...599).contains(status) else {
            return .failed("not an HTTP answer")
        }
        guard status == 200 else {
            return .failed(status == 401 || status == 403 ? "answered \(status) (is the API key right?)" : "answered \(status)")
        }
        return .body(Array(answer[(end + 4)...]))
    }

    static func words(_ error: SystemError) -> String {
        switch error.errno {
        case .connectionRefused: "connection refused (is it running?)"
        case .connectionReset: "connection reset"
        default: error.description
        }
    }
}
