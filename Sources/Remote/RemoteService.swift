import Logging
import PhotoKioskApp
import Platform
import RemoteServer

/// The remote page and API as `photokiosk run` starts them: the HTTP server on the app's loop,
/// routed by `RemoteAPI`. Exists only when `[remote] listen` is set.
public final class RemoteService {
    public let server: HTTPServer
    public let api: RemoteAPI

    /// - Parameter idleTimeout: seconds of silence before a connection is closed. It bounds how
    ///   long a cut upload's temporary file can stay: a peer that sends its last bytes and its
    ///   close together is only noticed then (libmicrohttpd's edge-triggered epoll sees one event).
    public init(app: KioskApp, loop: EventLoop, listen: KioskConfig.ListenAddress, settings: RemoteAPI.Settings,
                idleTimeout: Int = 12, logger: Logger) throws(HTTPServerError) {
        let api = RemoteAPI(app: app, loop: loop, settings: settings, logger: logger)
        self.api = api
        var configuration = HTTPServer.Configuration(address: listen.host, port: listen.port)
        configuration.connectionTimeoutSeconds = idleTimeout
        server = try HTTPServer(configuration, loop: loop) { [unowned api] in
            api.route($0)
        }
        logger.info("remote: page and API on http://\(KioskConfig.ListenAddress(host: listen.host, port: UInt16(server.port)))/ (uploads into \(settings.uploadFolder))")
    }

    public func close() { server.close() }
}
