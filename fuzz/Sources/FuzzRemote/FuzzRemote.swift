import FuzzDriver
import Glibc
import Logging
import PhotoKioskApp
import Platform
import Remote
import RemoteServer

/// libFuzzer calls in on one thread; the kiosk below lives on it (hence nonisolated(unsafe)).
/// One libFuzzer input as an HTTP/1.1 request ("METHOD TARGET HTTP/1.1", header lines, a blank
/// line, the body) through the remote API as the server hands it over: the raw target split and
/// decoded by RequestTarget, then RemoteAPI.route (authentication, cross-site checks, integer
/// limits, every endpoint) against a headless kiosk, a small body to its JSON reader, a form's
/// bytes to the upload receiver as a file part. Every answer must be a valid HTTP status with a
/// JSON (or HTML/PNG) body; no trap, no hang. Seeds per endpoint: seeds/remote/.
enum Kiosk {
    static let token = "fuzz-Token-7q2XvLmN9pR4tK8w"
    static let folder: String = {
        var template = Array("/tmp/photokiosk-fuzz-remote-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "cannot make a scratch folder")
        return String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
    nonisolated(unsafe) static let loop: EventLoop = try! EventLoop(signals: [])
    nonisolated(unsafe) static let app: KioskApp = {
        var config = KioskConfig()
        config.slideshow.transition = .none
        let logger = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }
        let app = KioskApp(config: config, folders: [folder], display: HeadlessDisplay(width: 64, height: 48), loop: loop,
                           thumbnailCacheDirectory: folder + "/.cache", logger: logger)
        try! app.start()
        _ = app.startKioskSession(resume: nil)
        return app
    }()
    nonisolated(unsafe) static let api: RemoteAPI = {
        var settings = RemoteAPI.Settings(token: token, uploadFolder: folder,
                                          limits: UploadLimits(maximumFileBytes: 1 << 20, reserveBytes: 0), version: "fuzz")
        // No slow-down: a delayed answer would wait on a timer this driver never runs.
        settings.throttle.freeFailures = Int.max / 2
        return RemoteAPI(app: app, loop: loop, settings: settings, logger: Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() })
    }()
}

/// (method, target, headers lower-cased, body) of a request message; nil without a request line.
func split(_ bytes: UnsafeBufferPointer<UInt8>) -> (String, [UInt8], [String: String], [UInt8])? {
    let all = Array(bytes)
    let end = all.firstRange(of: [13, 10, 13, 10])
    let head = end.map { Array(all[..<$0.lowerBound]) } ?? all
    let body = end.map { Array(all[$0.upperBound...]) } ?? []
    var lines = head.split(separator: 10, omittingEmptySubsequences: false).map { line in line.last == 13 ? Array(line.dropLast()) : Array(line) }
    guard !lines.isEmpty else { return nil }
    let requestLine = lines.removeFirst().split(separator: 32, maxSplits: 2, omittingEmptySubsequences: true)
    guard requestLine.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in lines {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
        let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
        let value = String(decoding: line[(colon + 1)...].drop(while: { $0 == 32 || $0 == 9 }), as: UTF8.self)
        headers[name] = value
    }
    return (String(decoding: requestLine[0], as: UTF8.self), Array(requestLine[1]), headers, body)
}

func cookies(_ header: String?) -> [String: String] {
    var found: [String: String] = [:]
    for pair in (header ?? "").split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        guard parts.count == 2 else { continue }
        found[String(parts[0].drop(while: { $0 == " " }))] = String(parts[1])
    }
    return found
}

func checkAnswer(_ response: HTTPResponse) {
    precondition((100...599).contains(response.status), "status \(response.status)")
    if response.headers.contains(where: { $0.name == "Content-Type" && $0.value == "application/json" }) {
        precondition(response.body.first == UInt8(ascii: "{"), "a JSON answer is an object")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRemote(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let (method, target, headers, body) = split(UnsafeBufferPointer(start: data, count: size)) else { return 0 }
    let request = HTTPRequest(method: method, target: target, headers: headers, cookies: cookies(headers["cookie"]),
                              clientAddress: "192.0.2.\(size % 200)")
    var answers = 0
    let responder = HTTPResponder { response in
        checkAnswer(response)
        answers += 1
    }
    switch Kiosk.api.route(request) {
    case .respond(let response):
        checkAnswer(response)
    case .later(let work):
        work(responder)
    case .body(let limit, let completion):
        if body.count <= limit { completion(body, responder) }
    case .form(let receiver):
        // The body as one file part, named by its first line: names, sniffing, limits; then cut.
        let newline = body.firstIndex(of: 10) ?? body.endIndex
        let name = Array(body[..<newline])
        let content = Array(body[min(newline + 1, body.endIndex)...])
        content.withUnsafeBytes { receiver.receiveFile(field: "photo", fileName: name, contentType: nil, offset: 0, bytes: $0) }
        receiver.abandon()
    }
    // Answers given on the loop (the screen's PNG on a worker) come in on its next turns.
    for _ in 0..<3 { _ = try? Kiosk.loop.runOnce(timeout: 0) }
    precondition(answers <= 1, "one answer per request")
    return 0
}

@_cdecl("FuzzRemote_main")
public func fuzzRemoteMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    _ = Kiosk.api
    return runFuzzer(argc, argv) { data, size in fuzzRemote(data, size) }
}
