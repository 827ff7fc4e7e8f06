/// One request as the server hands it to the app's router: plain values, no connection handle.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The URL path after percent-decoding, as bytes (a photo name in it need not be UTF-8).
    public var pathBytes: [UInt8]
    /// Header names lower-cased.
    public var headers: [String: String]
    public var cookies: [String: String]
    public var query: [String: String]
    /// The peer's IP address as text ("192.168.1.20", "::1").
    public var clientAddress: String

    public init(method: String, pathBytes: [UInt8], headers: [String: String] = [:], cookies: [String: String] = [:],
                query: [String: String] = [:], clientAddress: String = "") {
        self.method = method
        self.pathBytes = pathBytes
        self.headers = headers
        self.cookies = cookies
        self.query = query
        self.clientAddress = clientAddress
    }

    /// A request as it arrived: `target` is the raw request target, split and percent-decoded
    /// by `RequestTarget` (the server and the fuzz target both come through here).
    public init(method: String, target: [UInt8], headers: [String: String] = [:], cookies: [String: String] = [:],
                clientAddress: String = "") {
        let (path, query) = RequestTarget.parse(target)
        self.init(method: method, pathBytes: path, headers: headers, cookies: cookies, query: query, clientAddress: clientAddress)
    }

    public var path: String { String(decoding: pathBytes, as: UTF8.self) }

    /// Largest Content-Length taken at its word (1 TiB): a larger one is refused, never multiplied.
    public static let maximumContentLength = 1 << 40

    /// The declared body length, when the client sent one it can be (digits, at most 1 TiB).
    public var contentLength: Int? { try? contentLengthCheck?.get() }

    /// nil without the header, else the declared length or why it cannot be taken.
    public var contentLengthCheck: Result<Int, BoundedInteger.Refusal>? {
        headers["content-length"].map {
            BoundedInteger.parse($0.withoutSurroundingBlanks, name: "Content-Length", range: 0...Self.maximumContentLength)
        }
    }

    /// The media type of Content-Type, lower-cased, without parameters ("application/json").
    public var mediaType: String? {
        headers["content-type"].map { String($0.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]).withoutSurroundingBlanks.lowercased() }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var withoutSurroundingBlanks: String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
              let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}

public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func == (a: HTTPResponse, b: HTTPResponse) -> Bool {
        a.status == b.status && a.body == b.body && a.headers.map { "\($0.name): \($0.value)" } == b.headers.map { "\($0.name): \($0.value)" }
    }
}

/// How the router wants a request handled once its headers are in.
public enum HTTPRoute {
    /// Answer at once; a body the client still sends is not read.
    case respond(HTTPResponse)
    /// Answer later through the responder (on the loop thread); the connection waits suspended,
    /// costing the loop nothing.
    case later((HTTPResponder) -> Void)
    /// Read a small body (at most `limit` bytes, else 413), then answer.
    case body(limit: Int, ([UInt8], HTTPResponder) -> Void)
    /// Stream a multipart or urlencoded form to the receiver; it answers at the end.
    case form(any HTTPFormReceiver)
}

/// Delivers one response to a waiting connection. Use on the loop thread; a second call is ignored.
public final class HTTPResponder {
    private let deliver: (HTTPResponse) -> Void
    public private(set) var hasResponded = false

    /// `deliver` gets the one answer. The server makes these; public so the router can be driven
    /// without a socket (the FuzzRemote target).
    public init(deliver: @escaping (HTTPResponse) -> Void) { self.deliver = deliver }

    public func respond(_ response: HTTPResponse) {
        guard !hasResponded else { return }
        hasResponded = true
        deliver(response)
    }
}

/// Receives a form body as libmicrohttpd's post processor parses it, on the loop thread.
public protocol HTTPFormReceiver: AnyObject {
    /// A chunk of a file part (`offset` counts from the file's first byte).
    func receiveFile(field: String, fileName: [UInt8], contentType: String?, offset: UInt64, bytes: UnsafeRawBufferPointer)
    /// A chunk of a plain field's value.
    func receiveField(name: String, offset: UInt64, bytes: UnsafeRawBufferPointer)
    /// The whole body arrived (`complete` false: the form did not parse to its end).
    func finish(complete: Bool, responder: HTTPResponder)
    /// The connection ended before `finish` (cut, timed out, or the server closed).
    func abandon()
}
