import Graphics
import Imaging
import Logging
import PhotoKioskApp
import Platform
import RemoteServer
import SystemAccess

/// The remote page's routes: every request is authenticated first, then turned into one of
/// the kiosk's commands (`KioskApp.perform`), a status read, the screen as PNG, the photo list,
/// an upload or a delete. Runs on the loop thread; knows requests and responses, not sockets.
public final class RemoteAPI {
    public struct Settings: Sendable {
        public var token: String
        public var uploadFolder: String
        public var limits: UploadLimits
        public var version: String
        public var throttle = FailureThrottle.Policy()
        /// Whose failing writes the status reports: the process's, or a test's own.
        public var storageHealth = StorageHealth.shared
        /// Where photokiosk-sync leaves each source's status file (`KioskPaths.sourceStatusFile`):
        /// the status shows the sources the kiosk has now (config.toml's, or the phone page's),
        /// their last sync, photo count and error. Nil: no sources are reported.
        public var stateDirectory: String?

        public init(token: String, uploadFolder: String, limits: UploadLimits, version: String) {
            self.token = token
            self.uploadFolder = uploadFolder
            self.limits = limits
            self.version = version
        }

        /// The API as `[remote]` configures it; nil when the remote is off.
        public init?(config: KioskConfig, folders: [String], version: String) {
            guard config.remote.listen != nil, let first = folders.first else { return nil }
            self.init(token: config.remote.token, uploadFolder: config.remote.uploadFolder ?? first,
                      limits: UploadLimits(maximumFileBytes: Int64(config.remote.maxUploadMB) << 20,
                                           reserveBytes: Int64(config.remote.reserveMB) << 20),
                      version: version)
        }
    }

    /// Photos per page of `GET /api/photos` unless `per_page` says otherwise (at most 500).
    public static let defaultPageSize = 100

    private let app: KioskApp
    private let loop: EventLoop
    private let settings: Settings
    private let folder: UploadFolder
    private let logger: Logger
    private let startedAt: Double
    public let authenticator: RemoteAuthenticator
    private let screenEncoder: ScreenEncoder
    /// `/api/settings` (RemoteSettingsAPI.swift); nil when the kiosk keeps no settings file.
    public var settingsAPI: RemoteSettingsAPI?
    /// The phone folder's Syncthing state (`[syncthing] enabled`); nil: the status says null.
    public var syncthing: SyncthingMonitor?

    public init(app: KioskApp, loop: EventLoop, settings: Settings, logger: Logger) {
        self.app = app
        self.loop = loop
        self.settings = settings
        self.logger = logger
        folder = UploadFolder(path: settings.uploadFolder, health: settings.storageHealth)
        startedAt = loop.now
        authenticator = RemoteAuthenticator(token: settings.token, throttle: settings.throttle, now: { [unowned loop] in loop.now })
        screenEncoder = ScreenEncoder(loop: loop)
        if let reason = folder.unwritableReason() {
            logger.warning("remote: uploads are refused: \(reason)")
        } else if case let removed = folder.removeInterruptedUploads(), removed > 0 {
            logger.notice("remote: removed \(removed) unfinished upload(s) left in \(folder.path) by an earlier run")
        }
    }

    /// The server's router.
    public func route(_ request: HTTPRequest) -> HTTPRoute {
        if let problem = Self.malformation(of: request) { return .respond(Self.error(400, problem)) }
        let path = request.path
        if path == "/login" {
            guard request.method == "POST" else { return .respond(Self.methodNotAllowed(["POST"])) }
            if let refusal = CrossSiteCheck.refusal(request, bodyTypes: ["application/x-www-form-urlencoded", "multipart/form-data"]) {
                return .respond(Self.error(403, refusal))
            }
            return .form(LoginForm(api: self, address: request.clientAddress))
        }
        // The frame's QR code: http://ADDR:PORT/?pair=TOKEN signs the phone in like the login
        // form, then sends it to / without the token in the address bar.
        if path == "/" || path == "/index.html", request.method == "GET", let pair = request.query["pair"] {
            let address = request.clientAddress
            return .later { [unowned self] responder in self.login(token: pair, address: address, responder: responder) }
        }
        switch authenticator.check(request) {
        case .allowed:
            return authorizedRoute(request)
        case .refused(let delay):
            logger.notice("remote: refused \(request.method) \(path) from \(request.clientAddress) (no valid token or session)")
            let refusal = path.hasPrefix("/api/") ? Self.unauthorized : RemotePage.login(message: nil)
            return answer(refusal, after: delay, to: request.clientAddress)
        }
    }

    /// Delayed refusals waiting per address at most. The rest of the address's slots stay free
    /// for its right token (checked at once, never delayed); a failure beyond these is answered
    /// 429 at once. That answer is fast, but a token that passes `tokenProblem` (random-looking,
    /// 16+ characters) is still far beyond guessing at any rate a network allows.
    static let maximumWaitingRefusalsPerAddress = 4
    private var waitingRefusals: [String: Int] = [:]

    /// `response` at once, or after `delay` seconds with the connection suspended meanwhile.
    func answer(_ response: HTTPResponse, after delay: Double, to address: String) -> HTTPRoute {
        guard delay > 0 else { return .respond(response) }
        let waiting = waitingRefusals[address, default: 0]
        guard waiting < Self.maximumWaitingRefusalsPerAddress else {
            var busy = Self.error(429, "too many failed tries from \(address); try again in \(Int(delay.rounded(.up))) s")
            busy.headers.append(("Retry-After", "\(Int(delay.rounded(.up)))"))
            return .respond(busy)
        }
        waitingRefusals[address] = waiting + 1
        return .later { [loop, weak self] responder in
            loop.addTimer(after: delay) {
                if let self {
                    let left = self.waitingRefusals[address, default: 1] - 1
                    self.waitingRefusals[address] = left > 0 ? left : nil
                }
                responder.respond(response)
            }
        }
    }

    /// Why the request cannot be routed at all (400), or nil: a control byte in the decoded path
    /// ("%00" once cut "/api/status%00.png" to "/api/status"), a Content-Length it cannot be.
    static func malformation(of request: HTTPRequest) -> String? {
        if let byte = request.pathBytes.first(where: { $0 < 0x20 || $0 == 0x7F }) {
            return "the path contains a control character (byte \(byte)); NUL, line breaks and other controls are never part of a name here"
        }
        if case .failure(let refusal)? = request.contentLengthCheck { return refusal.message }
        return nil
    }

    private func authorizedRoute(_ request: HTTPRequest) -> HTTPRoute {
        let path = request.path
        let method = request.method
        if path == RemoteSettingsAPI.path, let settingsAPI { return settingsAPI.route(request) }
        switch path {
        case "/", "/index.html":
            guard method == "GET" else { return .respond(Self.methodNotAllowed(["GET"])) }
            return .respond(RemotePage.main)
        case "/api/status":
            guard method == "GET" else { return .respond(Self.methodNotAllowed(["GET"])) }
            return .respond(Self.json(200, statusJSON()))
        case "/api/next", "/api/previous", "/api/pause", "/api/resume":
            guard method == "POST" else { return .respond(Self.methodNotAllowed(["POST"])) }
            if let refusal = CrossSiteCheck.refusal(request, bodyTypes: ["application/json"]) { return .respond(Self.error(403, refusal)) }
            let command: KioskCommand = switch path {
            case "/api/next": .next
            case "/api/previous": .previous
            case "/api/pause": .pause
            default: .resume
            }
            return .respond(perform(command))
        case "/api/screen", "/api/slideshow":
            guard method == "POST" else { return .respond(Self.methodNotAllowed(["POST"])) }
            if let refusal = CrossSiteCheck.refusal(request, bodyTypes: ["application/json"]) { return .respond(Self.error(403, refusal)) }
            return .body(limit: 1024) { [unowned self] body, responder in
                guard let on = Self.parseOnSwitch(body) else {
                    responder.respond(Self.error(400, #"the body must be {"on": true} or {"on": false}"#))
                    return
                }
                responder.respond(self.perform(path == "/api/screen" ? .screen(on: on) : .slideshow(on: on)))
            }
        case "/api/screen.png":
            guard method == "GET" else { return .respond(Self.methodNotAllowed(["GET"])) }
            return .later { [unowned self] responder in self.screenEncoder.encode(self.app.host.display.frameBuffer, for: responder) }
        case "/api/photos":
            switch method {
            case "GET": return .respond(photoList(request))
            case "POST":
                if let refusal = CrossSiteCheck.refusal(request, bodyTypes: ["multipart/form-data"]) { return .respond(Self.error(403, refusal)) }
                if let reason = folder.unwritableReason() {
                    return .respond(Self.error(403, "uploads are refused: \(reason)"))
                }
                if let length = request.contentLength, let available = folder.availableBytes(),
                   Int64(length) > max(0, available - settings.limits.reserveBytes) {
                    return .respond(Self.error(507, UploadRefusal.noSpace(reserve: settings.limits.reserveBytes).message))
                }
                return .form(PhotoUpload(folder: folder, limits: settings.limits, mailbox: loop.mailbox, logger: logger))
            default: return .respond(Self.methodNotAllowed(["GET", "POST"]))
            }
        default:
            let prefix = Array("/api/photos/".utf8)
            if request.pathBytes.starts(with: prefix) {
                guard method == "DELETE" else { return .respond(Self.methodNotAllowed(["DELETE"])) }
                if let refusal = CrossSiteCheck.refusal(request, bodyTypes: ["application/json"]) { return .respond(Self.error(403, refusal)) }
                return .respond(delete(Array(request.pathBytes.dropFirst(prefix.count))))
            }
            return .respond(Self.error(404, "no such page or API: \(method) \(path)"))
        }
    }

    // MARK: Commands and status

    private func perform(_ command: KioskCommand) -> HTTPResponse {
        switch app.perform(command) {
        case .done:
            logger.info("remote: \(command)")
            return Self.json(200, .object([("ok", .bool(true)), ("status", statusJSON())]))
        case .refused(let reason):
            return Self.error(409, reason)
        }
    }

    func statusJSON() -> JSONValue {
        let status = app.status
        let uploadProblem = folder.unwritableReason()
        let storage = folder.health.failing
        return .object([
            ("screen", .string(status.screen.rawValue)),
            ("photo", status.photoName.map { .string($0) } ?? .null),
            ("photo_index", status.photoIndex.map { .integer(Int64($0)) } ?? .null),
            ("library_size", .integer(Int64(status.photoCount))),
            ("slideshow", .bool(status.isSlideshowRunning)),
            ("paused", .bool(status.isPaused)),
            ("screen_on", .bool(status.isScreenOn)),
            ("version", .string(settings.version)),
            ("uptime_seconds", .integer(Int64(loop.now - startedAt))),
            ("upload_folder", .string(folder.path)),
            ("upload_free_bytes", folder.availableBytes().map { .integer($0) } ?? .null),
            ("uploads", uploadProblem.map { .string("refused: \($0)") } ?? .string("ok")),
            // "ok", or since when writes fail and how ("storage failing since …", "storage read-only since …").
            ("storage", storage.map { .string($0.summary) } ?? .string("ok")),
            ("storage_failed_writes", .integer(Int64(storage?.failedWrites ?? 0))),
            ("sources", .array(settings.stateDirectory.map { directory in
                app.config.sources.map { Self.sourceJSON(name: $0.name, SourceStatus.read(KioskPaths.sourceStatusFile($0.name, in: directory))) }
            } ?? [])),
            ("syncthing", syncthing.map { .object([("state", .string($0.state.code)), ("summary", .string($0.state.description))]) } ?? .null),
        ])
    }

    /// A source's state from its status file (nil: not synced yet). Never a credential: the
    /// file holds only times, counts and rclone's error in words.
    static func sourceJSON(name: String, _ status: SourceStatus?) -> JSONValue {
        func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        return .object([
            ("name", .string(name)),
            ("last_sync", text(status?.lastSync)),
            ("photos", .integer(Int64(status?.photos ?? 0))),
            ("error", text(status?.error)),
            ("failures", .integer(Int64(status?.failures ?? 0))),
            ("quota", text(status?.quotaNote)),
        ])
    }

    // MARK: Photos

    /// The largest `page` asked for (with `per_page` at most 500, far past any library).
    public static let maximumPage = 1_000_000
    public static let maximumPageSize = 500

    private func photoList(_ request: HTTPRequest) -> HTTPResponse {
        var perPage = Self.defaultPageSize
        var page = 1
        if let text = request.query["per_page"] {
            switch BoundedInteger.parse(text, name: "per_page", range: 1...Self.maximumPageSize) {
            case .success(let value): perPage = value
            case .failure(let refusal): return Self.error(400, refusal.message)
            }
        }
        if let text = request.query["page"] {
            switch BoundedInteger.parse(text, name: "page", range: 1...Self.maximumPage) {
            case .success(let value): page = value
            case .failure(let refusal): return Self.error(400, refusal.message)
            }
        }
        let photos = app.photos
        // Within Int by the limits above; checked all the same, so a limit raised later cannot trap.
        let (offset, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
        let start = overflow ? photos.count : min(offset, photos.count)
        let end = start + min(perPage, photos.count - start)
        var uploads = Array(folder.path.utf8)
        while uploads.count > 1, uploads.last == UInt8(ascii: "/") { uploads.removeLast() }
        let items: [JSONValue] = (start..<end).map { index in
            let file = photos[index].file
            let inUploads = file.path.parent.bytes == uploads
            // Offered for delete only when DELETE can address it (the same test decides both).
            let deletable = inUploads && Self.unaddressableReason(file.path.lastComponent) == nil
            var members: [(String, JSONValue)] = [
                ("index", .integer(Int64(index))),
                ("name", .string(String(lossyBytes: file.path.lastComponent))),
                ("bytes", .integer(file.size)),
                ("modified", .integer(file.modificationSeconds)),
                ("in_upload_folder", .bool(inUploads)),
                ("deletable", .bool(deletable)),
            ]
            if deletable { members.append(("url", .string("/api/photos/" + percentEncoded(file.path.lastComponent)))) }
            return .object(members)
        }
        return Self.json(200, .object([
            ("page", .integer(Int64(page))), ("per_page", .integer(Int64(perPage))),
            ("total", .integer(Int64(photos.count))), ("photos", .array(items)),
        ]))
    }

    /// Why DELETE cannot name `name`, or nil. The photo list offers a delete link only when nil.
    static func unaddressableReason(_ name: [UInt8]) -> String? {
        let shown = String(lossyBytes: name)
        guard !name.isEmpty, !name.contains(UInt8(ascii: "/")), name != Array(".".utf8), name != Array("..".utf8),
              !name.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            return "\"\(shown)\" is not a plain file name"
        }
        guard PhotoFileType(fileName: name) != nil else {
            return "\"\(shown)\" is not a photo name (only photos in the upload folder can be deleted)"
        }
        return nil
    }

    private func delete(_ name: [UInt8]) -> HTTPResponse {
        let shown = String(lossyBytes: name)
        if let reason = Self.unaddressableReason(name) { return Self.error(400, reason) }
        guard folder.containsFile(named: name) else {
            return Self.error(404, "\"\(shown)\" is not in the upload folder \(folder.path)")
        }
        do throws(UploadFileError) {
            try folder.removeFile(named: name)
        } catch {
            return Self.error(500, "could not delete \"\(shown)\": \(error)")
        }
        logger.info("remote: deleted \(shown) from \(folder.path)")
        return Self.json(200, .object([("deleted", .string(shown))]))
    }

    // MARK: Login

    func login(token: String, address: String, responder: HTTPResponder) {
        let (session, delay) = authenticator.login(token: token, from: address)
        let response: HTTPResponse
        if let session {
            response = HTTPResponse(status: 303, headers: [
                ("Location", "/"),
                ("Set-Cookie", "\(RemoteAuthenticator.cookieName)=\(session); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Int(RemoteAuthenticator.sessionSeconds))"),
            ])
        } else {
            logger.notice("remote: wrong token typed into the login page from \(address)")
            response = RemotePage.login(message: "That token is not right.")
        }
        guard delay > 0 else { return responder.respond(response) }
        loop.addTimer(after: delay) { responder.respond(response) }
    }

    // MARK: Responses

    static let unauthorized = HTTPResponse(status: 401, headers: [
        ("Content-Type", "application/json"), ("WWW-Authenticate", #"Bearer realm="photokiosk""#), ("Cache-Control", "no-store"),
    ], body: JSONValue.object([("error", .string("a valid token is needed: send Authorization: Bearer TOKEN, or log in on the page"))]).bytes)

    static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: value.bytes)
    }

    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, .object([("error", .string(message))]))
    }

    static func methodNotAllowed(_ allowed: [String]) -> HTTPResponse {
        var response = error(405, "use \(allowed.joined(separator: " or ")) here")
        response.headers.append(("Allow", allowed.joined(separator: ", ")))
        return response
    }

    /// {"on": true} or {"on": false}, whitespace anywhere between the tokens.
    static func parseOnSwitch(_ body: [UInt8]) -> Bool? {
        let compact = String(decoding: body.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }, as: UTF8.self)
        switch compact {
        case #"{"on":true}"#: return true
        case #"{"on":false}"#: return false
        default: return nil
        }
    }
}

/// The page's login form: `token=...` (urlencoded or multipart).
private final class LoginForm: HTTPFormReceiver {
    private unowned let api: RemoteAPI
    private let address: String
    private var token: [UInt8] = []

    init(api: RemoteAPI, address: String) {
        self.api = api
        self.address = address
    }

    func receiveFile(field: String, fileName: [UInt8], contentType: String?, offset: UInt64, bytes: UnsafeRawBufferPointer) {}

    func receiveField(name: String, offset: UInt64, bytes: UnsafeRawBufferPointer) {
        guard name == "token", token.count + bytes.count <= 1024 else { return }
        token += bytes
    }

    func finish(complete: Bool, responder: HTTPResponder) {
        api.login(token: String(decoding: token, as: UTF8.self), address: address, responder: responder)
    }

    func abandon() {}
}
