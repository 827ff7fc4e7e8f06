import CHTTP
import CLibMicroHTTPD
import Glibc
import Platform
import SystemPackage

public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// An HTTP server on libmicrohttpd, driven by the app's `EventLoop`: libmicrohttpd's epoll fd
/// sits in the loop's epoll, so requests are parsed and answered on the loop thread between
/// frames and nothing waits on a socket. Requests reach the app as `HTTPRequest` values through
/// `router`; the answer is an `HTTPRoute` (at once, later, after a small body, or a streamed
/// form). Answers given later suspend the connection, so a slow answer never holds the loop.
public final class HTTPServer {

    /// nil once libmicrohttpd is loaded (it is on the first start), else why it cannot be
    /// (loads it: `photokiosk doctor` asks).
    public static func libraryLoadProblem() -> String? {
        var error = [CChar](repeating: 0, count: 512)
        guard !chttp_load(&error, error.count) else { return nil }
        return text(ofCString: error)
    }
    public struct Configuration: Sendable {
        /// An IPv4 or IPv6 literal: "0.0.0.0", "127.0.0.1", "::".
        public var address: String
        /// 0 picks a free port (tests); see `port`.
        public var port: UInt16
        public var connectionLimit: Int = 256
        /// Connections from one address at most, well below `connectionLimit`, so a few hosts
        /// cannot take every slot (it took two at 128 each).
        public var connectionsPerAddress: Int = 16
        /// Seconds a connection may stay idle (no bytes either way) before it is closed.
        public var connectionTimeoutSeconds: Int = 12
        /// Seconds from a connection's start (or its previous answer) to its request's last header
        /// line: a client trickling a byte now and then is cut off then, however busy it looks.
        public var headerSeconds: Double = 5

        public init(address: String, port: UInt16) {
            self.address = address
            self.port = port
        }
    }

    public typealias Router = (HTTPRequest) -> HTTPRoute

    /// The port the server listens on.
    public let port: Int
    private let loop: EventLoop
    private let dispatcher: Dispatcher
    private var daemon: OpaquePointer?
    private let epollFD: FileDescriptor
    private var timeoutTimer: EventLoop.TimerID?
    private let configuration: Configuration

    /// Connections open now (libmicrohttpd's count, as its notifications tell it).
    public var openConnections: Int { dispatcher.openConnections }

    public init(_ configuration: Configuration, loop: EventLoop, router: @escaping Router) throws(HTTPServerError) {
        self.loop = loop
        self.configuration = configuration
        dispatcher = Dispatcher(router: router, headerSeconds: configuration.headerSeconds, now: { [unowned loop] in loop.now })
        let context = Unmanaged.passUnretained(dispatcher).toOpaque()
        var error = [CChar](repeating: 0, count: 256)
        guard let daemon = chttp_start(configuration.address, configuration.port,
                                       UInt32(configuration.connectionLimit), UInt32(configuration.connectionsPerAddress),
                                       UInt32(configuration.connectionTimeoutSeconds),
                                       accessHandler, context, completionHandler, context,
                                       requestStarted, connectionChanged, context,
                                       &error, error.count) else {
            throw HTTPServerError(description: text(ofCString: error))
        }
        self.daemon = daemon
        port = Int(chttp_bound_port(daemon))
        epollFD = FileDescriptor(rawValue: chttp_epoll_fd(daemon))
        // A resumed connection is only picked up by the next MHD_run (the loop drives libmicrohttpd,
        // it has no thread of its own to notice), so a resume schedules one on the next loop turn.
        dispatcher.wake = { [weak self, unowned loop] in
            let server = WeakLoopBound(self, on: loop.thread)
            loop.post { server.value?.serve() }
        }
        do throws(PlatformError) {
            try loop.watch(epollFD) { [unowned self] in self.serve() }
        } catch {
            chttp_stop_daemon(daemon)
            throw HTTPServerError(description: "cannot watch the server's sockets: \(error)")
        }
        serve()
    }

    deinit { close() }

    /// Stops listening and closes every connection; waiting requests are answered 503 first,
    /// unfinished uploads are abandoned (their receivers clean up).
    public func close() {
        guard let daemon else { return }
        dispatcher.answerWaitingRequests(HTTPResponse(status: 503))
        loop.unwatch(epollFD)
        if let timeoutTimer { loop.cancelTimer(timeoutTimer) }
        timeoutTimer = nil
        chttp_stop_daemon(daemon)
        self.daemon = nil
    }

    /// Lets libmicrohttpd accept, read and write what is ready, then arms the loop timer for
    /// its next connection timeout.
    ///
    /// At the connection limit libmicrohttpd takes its listening socket out of its epoll set and
    /// puts it back only at the start of a later run. If the run that closed the last connections
    /// were the last run (no connection left: no timeout; nothing in its epoll set to wake the
    /// loop), new clients would wait in the listen backlog until a restart. So a run in which a
    /// connection closed is followed by another on the next loop turn, and near the limit the
    /// timer is never longer than `atLimitSeconds`.
    private func serve() {
        guard let daemon else { return }
        dispatcher.closedDuringRun = false
        _ = chttp_run(daemon)
        let now = loop.now
        dispatcher.cutOffSlowHeaders(now: now)
        if dispatcher.closedDuringRun {
            let server = WeakLoopBound(self, on: loop.thread)
            loop.post { server.value?.serve() }
        }
        if let timeoutTimer { loop.cancelTimer(timeoutTimer) }
        timeoutTimer = nil
        var seconds: Double? = nil
        let milliseconds = chttp_timeout_ms(daemon)
        if milliseconds >= 0 { seconds = Double(milliseconds) / 1000 }
        if let deadline = dispatcher.earliestHeaderDeadline { seconds = min(seconds ?? .infinity, max(0, deadline - now) + 0.01) }
        if dispatcher.openConnections >= configuration.connectionLimit - 1 { seconds = min(seconds ?? .infinity, Self.atLimitSeconds) }
        if let seconds {
            timeoutTimer = loop.addTimer(after: seconds) { [unowned self] in
                self.timeoutTimer = nil
                self.serve()
            }
        }
    }

    /// The longest the server goes without a run while every slot is taken.
    static let atLimitSeconds = 0.25
}

/// The callbacks' context: routes new requests and keeps the suspended ones for shutdown.
private final class Dispatcher {
    let router: HTTPServer.Router
    var suspended: [ObjectIdentifier: Exchange] = [:]
    /// Runs libmicrohttpd again after a resume (on the next loop turn).
    var wake: () -> Void = {}
    let headerSeconds: Double
    let now: () -> Double
    private(set) var openConnections = 0
    var closedDuringRun = false
    /// Connections whose request headers are not all in yet, with the time they must be by.
    private var headerDeadlines: [OpaquePointer: Double] = [:]

    init(router: @escaping HTTPServer.Router, headerSeconds: Double, now: @escaping () -> Double) {
        self.router = router
        self.headerSeconds = headerSeconds
        self.now = now
    }

    func connectionOpened(_ connection: OpaquePointer) {
        openConnections += 1
        headerDeadlines[connection] = now() + headerSeconds
    }

    func connectionClosed(_ connection: OpaquePointer) {
        openConnections -= 1
        closedDuringRun = true
        headerDeadlines[connection] = nil
    }

    func headersArrived(on connection: OpaquePointer) { headerDeadlines[connection] = nil }

    /// A kept-alive connection's next request gets the same time for its headers.
    func requestCompleted(on connection: OpaquePointer) {
        if openConnections > 0 { headerDeadlines[connection] = now() + headerSeconds }
    }

    var earliestHeaderDeadline: Double? { headerDeadlines.values.min() }

    /// Shuts down connections past their header deadline; libmicrohttpd closes them on its next run.
    func cutOffSlowHeaders(now: Double) {
        for (connection, deadline) in headerDeadlines where deadline <= now {
            headerDeadlines[connection] = nil
            chttp_shutdown_connection(connection)
        }
    }

    func answerWaitingRequests(_ response: HTTPResponse) {
        for exchange in suspended.values { exchange.responder?.respond(response) }
    }
}

/// One request in flight; retained in libmicrohttpd's per-request slot until it completes.
private final class Exchange {
    enum Body {
        case none
        case bytes(limit: Int, completion: ([UInt8], HTTPResponder) -> Void)
        case form(any HTTPFormReceiver)
    }

    let connection: OpaquePointer
    /// The request target as the client sent it (before any decoding).
    var target: [UInt8] = []
    var routed = false
    var body: Body = .none
    var bodyBytes: [UInt8] = []
    var bodyTooLarge = false
    var postProcessor: OpaquePointer?
    var formComplete = true
    /// A form whose body is in, kept alive until the request completes: it may still be answering.
    var answeringForm: (any HTTPFormReceiver)?
    /// The answer waiting to be queued (set by the responder).
    var pending: HTTPResponse?
    var queued = false
    var isSuspended = false
    var responder: HTTPResponder?
    weak var dispatcher: Dispatcher?

    init(connection: OpaquePointer, dispatcher: Dispatcher) {
        self.connection = connection
        self.dispatcher = dispatcher
    }

    /// A responder that resumes this connection when it answers.
    func makeResponder() -> HTTPResponder {
        let responder = HTTPResponder { [weak self] response in
            guard let self else { return }
            self.pending = response
            if self.isSuspended {
                self.isSuspended = false
                self.dispatcher?.suspended[ObjectIdentifier(self)] = nil
                chttp_resume_connection(self.connection)
                self.dispatcher?.wake()
            }
        }
        self.responder = responder
        return responder
    }

    /// Queues the pending answer now, or suspends the connection until it comes.
    func queueOrSuspend() -> MHD_Result {
        if let pending { return queue(pending) }
        isSuspended = true
        dispatcher?.suspended[ObjectIdentifier(self)] = self
        chttp_suspend_connection(connection)
        return .YES
    }

    func queue(_ response: HTTPResponse) -> MHD_Result {
        queued = true
        let count = response.body.count
        let created = response.body.withUnsafeBytes { raw in
            chttp_create_response_from_buffer(count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return .NO }
        for header in response.headers { _ = chttp_add_response_header(created, header.name, header.value) }
        let result = chttp_queue_response(connection, UInt32(response.status), created)
        chttp_destroy_response(created)
        return result
    }

    func finishForm() {
        if let postProcessor {
            if chttp_destroy_post_processor(postProcessor) != .YES { formComplete = false }
            self.postProcessor = nil
        }
    }
}

// MARK: libmicrohttpd callbacks (loop thread, inside MHD_run)

private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, uploadData, uploadSize, slot in
    guard let context, let connection, let slot, let uploadSize else { return .NO }
    let dispatcher = Unmanaged<Dispatcher>.fromOpaque(context).takeUnretainedValue()

    let stored: UnsafeMutableRawPointer
    if let existing = slot.pointee {
        stored = existing
    } else {
        // No target seen by requestStarted (it always runs first): take libmicrohttpd's.
        let exchange = Exchange(connection: connection, dispatcher: dispatcher)
        exchange.target = url.map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) } } ?? []
        stored = Unmanaged.passRetained(exchange).toOpaque()
        slot.pointee = stored
    }
    let exchange = Unmanaged<Exchange>.fromOpaque(stored).takeUnretainedValue()
    if !exchange.routed {
        // First call: the headers are in, no body yet.
        exchange.routed = true
        dispatcher.headersArrived(on: connection)
        let request = makeRequest(connection: connection, method: method, target: exchange.target)
        switch dispatcher.router(request) {
        case .respond(let response):
            return exchange.queue(response)
        case .later(let work):
            work(exchange.makeResponder())
            return exchange.queueOrSuspend()
        case .body(let limit, let completion):
            if let length = request.contentLength, length > limit {
                return exchange.queue(tooLarge(limit))
            }
            exchange.body = .bytes(limit: limit, completion: completion)
        case .form(let receiver):
            exchange.body = .form(receiver)
            let context = Unmanaged.passUnretained(exchange).toOpaque()
            guard let processor = chttp_create_post_processor(connection, 64 << 10, formIterator, context) else {
                exchange.body = .none
                receiver.abandon()
                return exchange.queue(HTTPResponse(status: 415, headers: [("Content-Type", "application/json")],
                                                   body: Array(#"{"error":"the body must be multipart/form-data or application/x-www-form-urlencoded"}"#.utf8)))
            }
            exchange.postProcessor = processor
        }
        return .YES
    }

    if exchange.queued {
        uploadSize.pointee = 0
        return .YES
    }
    if uploadSize.pointee > 0 {
        let count = uploadSize.pointee
        uploadSize.pointee = 0
        switch exchange.body {
        case .none: break
        case .bytes(let limit, _):
            guard !exchange.bodyTooLarge, let uploadData else { break }
            if exchange.bodyBytes.count + count > limit {
                exchange.bodyTooLarge = true
                exchange.bodyBytes = []
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                    exchange.bodyBytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
        case .form:
            if let processor = exchange.postProcessor, let uploadData,
               chttp_post_process(processor, uploadData, count) != .YES {
                // The form stopped parsing; the rest of the body is read and dropped.
                exchange.formComplete = false
                exchange.finishForm()
            }
        }
        return .YES
    }

    // The whole body is in (or this is the call after a resume).
    if let pending = exchange.pending { return exchange.queue(pending) }
    switch exchange.body {
    case .none:
        return exchange.queueOrSuspend()
    case .bytes(let limit, let completion):
        exchange.body = .none
        if exchange.bodyTooLarge { return exchange.queue(tooLarge(limit)) }
        completion(exchange.bodyBytes, exchange.makeResponder())
        return exchange.queueOrSuspend()
    case .form(let receiver):
        exchange.body = .none
        exchange.answeringForm = receiver
        exchange.finishForm()
        receiver.finish(complete: exchange.formComplete, responder: exchange.makeResponder())
        return exchange.queueOrSuspend()
    }
}

private let requestStarted: chttp_request_started_callback = { context, target, connection in
    guard let context, let connection else { return nil }
    let dispatcher = Unmanaged<Dispatcher>.fromOpaque(context).takeUnretainedValue()
    let exchange = Exchange(connection: connection, dispatcher: dispatcher)
    exchange.target = target.map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) } } ?? []
    return Unmanaged.passRetained(exchange).toOpaque()
}

private let connectionChanged: MHD_NotifyConnectionCallback = { context, connection, _, change in
    guard let context, let connection else { return }
    let dispatcher = Unmanaged<Dispatcher>.fromOpaque(context).takeUnretainedValue()
    if change.rawValue == 0 {   // MHD_CONNECTION_NOTIFY_STARTED (else CLOSED)
        dispatcher.connectionOpened(connection)
    } else {
        dispatcher.connectionClosed(connection)
    }
}

private let completionHandler: MHD_RequestCompletedCallback = { context, connection, slot, _ in
    if let context, let connection {
        Unmanaged<Dispatcher>.fromOpaque(context).takeUnretainedValue().requestCompleted(on: connection)
    }
    guard let slot, let stored = slot.pointee else { return }
    slot.pointee = nil
    let exchange = Unmanaged<Exchange>.fromOpaque(stored).takeRetainedValue()
    exchange.dispatcher?.suspended[ObjectIdentifier(exchange)] = nil
    if let processor = exchange.postProcessor {
        _ = chttp_destroy_post_processor(processor)
        exchange.postProcessor = nil
    }
    // A form whose answer was never given: the body did not arrive in full.
    if case .form(let receiver) = exchange.body { receiver.abandon() }
    exchange.body = .none
}

private let formIterator: MHD_PostDataIterator = { context, _, key, fileName, contentType, _, data, offset, size in
    guard let context else { return .NO }
    let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
    guard case .form(let receiver) = exchange.body else { return .NO }
    let bytes = UnsafeRawBufferPointer(start: data.map { UnsafeRawPointer($0) }, count: data == nil ? 0 : size)
    let name = key.map { String(cString: $0) } ?? ""
    if let fileName {
        let nameBytes = Array(UnsafeBufferPointer(start: fileName, count: strlen(fileName))).map { UInt8(bitPattern: $0) }
        receiver.receiveFile(field: name, fileName: nameBytes, contentType: contentType.map { String(cString: $0) },
                             offset: offset, bytes: bytes)
    } else {
        receiver.receiveField(name: name, offset: offset, bytes: bytes)
    }
    return .YES
}

private func tooLarge(_ limit: Int) -> HTTPResponse {
    HTTPResponse(status: 413, headers: [("Content-Type", "application/json")],
                 body: Array(#"{"error":"the request body is larger than \#(limit) bytes"}"#.utf8))
}

// MARK: Reading the request

private func makeRequest(connection: OpaquePointer, method: UnsafePointer<CChar>?, target: [UInt8]) -> HTTPRequest {
    var request = HTTPRequest(method: method.map { String(cString: $0) } ?? "", target: target)
    request.headers = values(of: connection, kind: .HEADER_KIND, lowercased: true)
    request.cookies = values(of: connection, kind: .COOKIE_KIND, lowercased: false)
    var address = [CChar](repeating: 0, count: 64)
    chttp_client_address(connection, &address, address.count)
    request.clientAddress = text(ofCString: address)
    return request
}

private final class ValueCollector {
    var values: [String: String] = [:]
    let lowercased: Bool
    init(lowercased: Bool) { self.lowercased = lowercased }
}

private func values(of connection: OpaquePointer, kind: MHD_ValueKind, lowercased: Bool) -> [String: String] {
    let collector = ValueCollector(lowercased: lowercased)
    withExtendedLifetime(collector) {
        _ = chttp_get_connection_values(connection, kind, { context, _, key, value in
            guard let context, let key else { return .YES }
            let collector = Unmanaged<ValueCollector>.fromOpaque(context).takeUnretainedValue()
            let name = String(cString: key)
            collector.values[collector.lowercased ? name.lowercased() : name] = value.map { String(cString: $0) } ?? ""
            return .YES
        }, Unmanaged.passUnretained(collector).toOpaque())
    }
    return collector.values
}

/// The text in a NUL-terminated C buffer.
private func text(ofCString buffer: [CChar]) -> String {
    String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
