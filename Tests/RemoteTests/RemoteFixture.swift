import Basics
import Glibc
import Graphics
import Imaging
import Logging
import PhotoKioskApp
import SystemAccess
import Platform
@testable import Remote
import TestSupport

/// A headless KioskApp with its life running and the remote service on a free loopback port.
/// The library has `library/` (three photos) and `uploads/` (empty, the upload folder).
/// Clients run on worker threads while the test thread turns the loop (`whileServing`).
final class RemoteFixture {
    static let token = "test-token-0123456789abcdef"
    let scratch = ScratchDirectory()
    let library: String
    let uploads: String
    let app: KioskApp
    let loop: EventLoop
    let service: RemoteService
    var port: Int { service.server.port }
    let photoBytes: [UInt8]
    /// The fixture's own: other tests' failing writes must not show in its status.
    let storageHealth = StorageHealth()

    init(maximumFileBytes: Int64 = 1 << 20, reserveBytes: Int64 = 0, uploadFolder: String? = nil,
         throttle: FailureThrottle.Policy = .init(), idleTimeout: Int = 20,
         before: (_ uploads: String) -> Void = { _ in }) throws {
        library = scratch.directory("library").description
        uploads = scratch.directory("uploads").description
        photoBytes = try Self.jpeg(color: .green)
        before(uploads)
        for (i, color) in [Color.red, .blue, .white].enumerated() {
            writeFile(RawPath(library + "/photo\(i + 1).jpg"), try Self.jpeg(color: color))
        }
        var config = KioskConfig()
        config.library.thumbnailSize = 64
        config.slideshow.idleTimeout = 3600
        config.slideshow.interval = 1
        config.slideshow.transition = .none
        let display = HeadlessDisplay(width: 320, height: 240)
        loop = try EventLoop(signals: [])
        app = KioskApp(config: config, folders: [library, uploads], display: display, loop: loop,
                       thumbnailCacheDirectory: scratch.directory("cache").description, logger: Logger(label: "remote-test"))
        try app.start()
        _ = app.startKioskSession(resume: nil)
        var settings = RemoteAPI.Settings(token: Self.token, uploadFolder: uploadFolder ?? uploads,
                                          limits: UploadLimits(maximumFileBytes: maximumFileBytes, reserveBytes: reserveBytes),
                                          version: "test")
        settings.throttle = throttle
        settings.storageHealth = storageHealth
        service = try RemoteService(app: app, loop: loop, listen: KioskConfig.ListenAddress(host: "127.0.0.1", port: 0),
                                    settings: settings, idleTimeout: idleTimeout, logger: Logger(label: "remote-test"))
        // /api/settings, with its settings file in the scratch folder.
        service.api.settingsAPI = RemoteSettingsAPI(app: app, store: SettingsStore(stateDirectory: scratch.directory("state").description, logger: Logger(label: "remote-test")),
                                                    base: config, logger: Logger(label: "remote-test"))
        _ = try whileServing { _ in () } until: { self.app.photos.count >= 3 }
    }

    deinit { service.close() }

    static func jpeg(color: Color, width: Int = 64, height: Int = 48) throws -> [UInt8] {
        let bitmap = Bitmap(width: width, height: height)
        Canvas(target: bitmap).fill(Rect(x: 0, y: 0, width: width, height: height), color: color)
        return try JPEGEncoder.encode(bitmap, quality: 90)
    }

    /// Runs `client(port)` on a worker thread while this thread turns the loop (and draws), until
    /// the client is done and `until` holds, or 60 s pass (then nil).
    func whileServing<T: Sendable>(_ client: @escaping @Sendable (Int) -> T, until: () -> Bool = { true },
                                   eachTurn: () -> Void = {}) throws -> T? {
        let result = Locked<T?>(nil)
        let port = self.port
        let worker = WorkerThread(name: "test-client") {
            let value = client(port)   // outside the lock: the loop thread polls it meanwhile
            result.withLock { $0 = value }
        }
        defer { worker.join() }
        let end = loop.now + 60
        while loop.now < end {
            if result.withLock({ $0 != nil }) && until() { break }
            try loop.runOnce(timeout: 0.02)
            app.host.pump()
            eachTurn()
        }
        return result.withLock { $0 }
    }

    /// One request with the token; a POST or DELETE without a Content-Type says JSON, as the page does.
    func request(_ method: String, _ path: String, body: [UInt8] = [], headers: [(String, String)] = [],
                 authorized: Bool = true) throws -> HTTPReply? {
        let says = headers.contains { $0.0.lowercased() == "content-type" }
        let type = (method == "POST" || method == "DELETE") && !says ? [("Content-Type", "application/json")] : []
        let all = (authorized ? [("Authorization", "Bearer \(Self.token)")] : []) + type + headers
        return try whileServing { port in LoopbackClient.send(port: port, method: method, path: path, headers: all, body: body) } ?? nil
    }

    func upload(_ files: [(name: [UInt8], data: [UInt8])]) throws -> HTTPReply? {
        var form = MultipartBody()
        for file in files { form.addFile(name: file.name, data: file.data) }
        return try request("POST", "/api/photos", body: form.finished, headers: [MultipartBody.contentType])
    }

    /// Names in a folder, sorted (hidden temporary files included).
    func names(in folder: String) -> [String] {
        (directoryEntryNames(RawPath(folder)) ?? []).map { String(decoding: $0, as: UTF8.self) }.sorted()
    }
}

extension RemoteFixture {
    /// A change's header: the API refuses other types (cross-site forms).
    static let jsonBody = [("Content-Type", "application/json")]

    /// The fixture with `/api/settings` over a settings file of its own.
    static func withSettings() throws -> (RemoteFixture, SettingsStore) {
        let f = try RemoteFixture()
        let store = SettingsStore(stateDirectory: f.scratch.directory("state").description, logger: Logger(label: "test"))
        f.service.api.settingsAPI = RemoteSettingsAPI(app: f.app, store: store, base: f.app.config, logger: Logger(label: "test"))
        return (f, store)
    }
}
