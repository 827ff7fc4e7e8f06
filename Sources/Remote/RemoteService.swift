import Logging
import PhotoKioskApp
import Platform
import RemoteServer

/// The remote page and API as `photokiosk run` starts them: the HTTP server on the app's loop,
/// routed by `RemoteAPI`. Exists only when `[remote] listen` is set.
public final class RemoteService {
    public let server: HTTPServer
    public let api: RemoteAPI

    public init(app: KioskApp, loop: EventLoop, listen: KioskConfig.ListenAddress, settings: RemoteAPI.Settings,
                logger: Logger) throws(HTTPServerError) {
        let api = RemoteAPI(app: app, loop: loop, settings: settings, logger: logger)
        self.api = api
        server = try HTTPServer(HTTPServer.Configuration(address: listen.host, port: listen.port), loop: loop) { [unowned api] in
            api.route($0)
        }
        logger.info("remote: page and API on http://\(KioskConfig.ListenAddress(host: listen.host, port: UInt16(server.port)))/ (uploads into \(settings.uploadFolder))")
    }

    public func close() { server.close() }
}
