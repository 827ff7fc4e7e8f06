import Logging
import PhotoKioskApp
import RemoteServer

/// `/api/settings`: the settings the phone page may change (`KioskSettings.keys`).
/// - GET: their values now, which of them the settings file holds, and the choices of each menu.
/// - PUT: a JSON object shaped like config.toml (`{"slideshow": {"interval": 20}}`), only the
///   options to change. Checked by the config's own rules (400 with the reason), saved
///   atomically in the settings file, then applied at once (`KioskCommand.settings`).
/// - DELETE: forgets the settings file; config.toml's values apply again.
/// PUT and DELETE pass `CrossSiteCheck` as the API's other changes do: `Content-Type:
/// application/json` (a form on another site cannot send it) and an Origin/Referer, when sent,
/// that names this server; else 403 with the reason.
public final class RemoteSettingsAPI {
    public static let path = "/api/settings"
    /// A settings body is a few hundred bytes; a long schedule a few kilobytes.
    static let bodyLimit = 16 << 10

    private let app: KioskApp
    private let store: SettingsStore
    /// config.toml and the command line, under the settings file.
    private let base: KioskConfig
    private let logger: Logger

    public init(app: KioskApp, store: SettingsStore, base: KioskConfig, logger: Logger) {
        self.app = app
        self.store = store
        self.base = base
        self.logger = logger
    }

    public func route(_ request: HTTPRequest) -> HTTPRoute {
        switch request.method {
        case "GET":
            return .respond(RemoteAPI.json(200, settingsJSON()))
        case "PUT":
            if let refusal = CrossSiteCheck.refusal(request, bodyTypes: ["application/json"]) { return .respond(RemoteAPI.error(403, refusal)) }
            return .body(limit: Self.bodyLimit) { [unowned self] body, responder in
                responder.respond(self.change(body))
            }
        case "DELETE":
            if let refusal = CrossSiteCheck.refusal(request, bodyTypes: ["application/json"]) { return .respond(RemoteAPI.error(403, refusal)) }
            store.reset()
            apply(base)
            logger.info("remote: settings back to config.toml")
            return .respond(RemoteAPI.json(200, settingsJSON()))
        default:
            return .respond(RemoteAPI.methodNotAllowed(["GET", "PUT", "DELETE"]))
        }
    }

    func change(_ body: [UInt8]) -> HTTPResponse {
        let changes: TOMLTable
        do throws(JSONReader.Failure) {
            changes = try JSONReader.table(from: body)
        } catch {
            return RemoteAPI.error(400, "\(error)")
        }
        do throws(SettingsStore.ChangeError) {
            let config = try store.change(changes, base: base)
            apply(config)
            logger.info("remote: settings saved in \(store.file)")
            return RemoteAPI.json(200, settingsJSON())
        } catch {
            switch error {
            case .invalid: return RemoteAPI.error(400, "\(error)")
            case .notSaved: return RemoteAPI.error(500, "\(error)")
            }
        }
    }

    private func apply(_ config: KioskConfig) {
        _ = app.perform(.settings(config))
    }

    func settingsJSON() -> JSONValue {
        .object([
            ("settings", app.config.settingsJSON),
            ("from_settings_file", .array(store.heldKeys.map { .string($0) })),
            ("settings_file", .string(store.file)),
            ("choices", .object(KioskSettings.choices.map { ($0.0, .array($0.1.map { .string($0) })) })),
        ])
    }
}
