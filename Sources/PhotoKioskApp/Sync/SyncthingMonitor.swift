import Platform

/// Asks the frame's Syncthing every `interval` seconds how the phone folder stands
/// (`/rest/db/status`, then `/rest/system/connections`) and keeps the answer as a
/// `SyncthingState` for the phone page, the status JSON and `doctor`. Runs on the event loop
/// (a monotonic timer; the requests are non-blocking loopback sockets, `LoopbackHTTPGet`), one
/// poll at a time. The API key goes only into the request's header, never into a log or a state.
public final class SyncthingMonitor {
    public private(set) var state: SyncthingState = .starting
    /// Runs on the loop when `state` changes.
    public var onChange: ((SyncthingState) -> Void)?

    private let loop: EventLoop
    private let address: SyncthingAPIAddress
    private let apiKey: String
    private let folderID: String
    private let interval: Double
    private let timeout: Double
    private var request: LoopbackHTTPGet?
    private var timer: EventLoop.TimerID?
    /// Monotonic time a remote device was last seen connected (nil: not since the start).
    private var lastConnected: Double?
    private var stopped = false

    /// nil when the key cannot go into a header (empty, or a character that is not visible ASCII).
    public init?(loop: EventLoop, address: SyncthingAPIAddress, apiKey: String, folderID: String,
                 interval: Double = 5, timeout: Double = 4) {
        guard Self.isHeaderSafe(apiKey), Self.isHeaderSafe(folderID) else { return nil }
        self.loop = loop
        self.address = address
        self.apiKey = apiKey
        self.folderID = folderID
        self.interval = interval
        self.timeout = timeout
    }

    /// Polls now, then every `interval` seconds until `stop`.
    public func start() {
        stopped = false
        poll()
    }

    public func stop() {
        stopped = true
        if let timer { loop.cancelTimer(timer) }
        timer = nil
        request?.cancel()
        request = nil
    }

    private func poll() {
        timer = nil
        get("/rest/db/status?folder=" + Self.percentEncoded(folderID), maximumBytes: SyncthingFolderStatus.maximumBytes,
            parsing: SyncthingFolderStatus.init(parsing:), named: "folder status") { monitor, folder in
            monitor.askConnections(folder)
        }
    }

    private func askConnections(_ folder: SyncthingFolderStatus) {
        get("/rest/system/connections", maximumBytes: SyncthingConnections.maximumBytes,
            parsing: SyncthingConnections.init(parsing:), named: "connections") { monitor, connections in
            if connections.connectedDevices > 0 { monitor.lastConnected = monitor.loop.now }
            let away = monitor.lastConnected.map { Duration.seconds(Int(monitor.loop.now - $0)) }
            monitor.finish(SyncthingState(folder: folder, connections: connections, disconnectedFor: away))
        }
    }

    /// One step of a poll: a failed request, or an answer that does not parse (`name` says which
    /// in the reason), ends the poll as not reachable; a parsed answer goes to `next`, which gets
    /// the monitor as an argument so that the request it holds does not hold it back.
    private func get<Answer>(_ path: String, maximumBytes: Int, parsing parse: @escaping ([UInt8]) throws(SyncthingFolderStatus.Refusal) -> Answer,
                             named name: String, _ next: @escaping (SyncthingMonitor, Answer) -> Void) {
        get(path, maximumBytes: maximumBytes) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .failed(let reason): self.finish(.notReachable(reason))
            case .body(let body):
                do throws(SyncthingFolderStatus.Refusal) {
                    next(self, try parse(body))
                } catch {
                    self.finish(.notReachable("\(name): \(error)"))
                }
            }
        }
    }

    private func get(_ path: String, maximumBytes: Int, _ completion: @escaping (LoopbackHTTPGet.Outcome) -> Void) {
        // Syncthing's answers carry no Content-Length promise we rely on: HTTP headers fit in 4 KB.
        request = LoopbackHTTPGet(loop: loop, port: UInt16(address.port), ipv6: address.host == "::1", path: path,
                                  headers: [("X-API-Key", apiKey)], maximumBytes: maximumBytes + 4096,
                                  timeout: timeout, completion: completion)
    }

    private func finish(_ new: SyncthingState) {
        request = nil
        guard !stopped else { return }
        if new != state {
            state = new
            onChange?(new)
        }
        timer = loop.addTimer(after: interval) { [weak self] in self?.poll() }
    }

    static func isHeaderSafe(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 256 && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }

    /// A query value: RFC 3986's unreserved characters as they are, every other byte %XX.
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
