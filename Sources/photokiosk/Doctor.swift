import ArgumentParser
import PhotoKioskApp
import Platform
import RemoteServer

struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List DRM devices, connectors, modes, input devices and permissions, say what would be used, and where the remote page is.")

    @Option(help: "Config file (default: \(KioskConfig.defaultPath), which may be absent).")
    var config: String?

    func run() throws {
        print(platformReport())
        print(remoteReport())
    }

    /// The remote page's address(es) when `[remote] listen` is set, or why there is none.
    func remoteReport() -> String {
        let path = config ?? KioskConfig.defaultPath
        let loaded: KioskConfig
        do {
            loaded = try KioskConfig.load(path: path, mustExist: config != nil)
        } catch {
            return "Remote page: unknown (\(error))"
        }
        guard let listen = loaded.remote.listen else {
            return "Remote page: off (set [remote] listen in \(path), e.g. \"0.0.0.0:8080\")"
        }
        let hosts = listen.host == "0.0.0.0" || listen.host == "::" ? LocalAddresses.ipv4() : [listen.host]
        let urls = hosts.map { "http://\(KioskConfig.ListenAddress(host: $0, port: listen.port))/" }
        return "Remote page: " + (urls.isEmpty ? "listening on \(listen), but this computer has no network address yet" : urls.joined(separator: "  "))
            + " (token: [remote] token in \(path))"
    }
}
