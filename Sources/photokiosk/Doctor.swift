import ArgumentParser
import Imaging
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
        print(optionalLibrariesReport())
    }

    /// The libraries loaded only when used (HEIF/AVIF photos, MQTT, the remote page): whether
    /// each loads here, so a missing one shows before a photo or a setting needs it.
    func optionalLibrariesReport() -> String {
        let libraries: [(name: String, use: String, problem: String?)] = [
            ("libheif", "HEIF/AVIF photos", HEIFDecoder.libraryProblem()),
            ("libmosquitto", "MQTT", MQTTClient.libraryLoadProblem()),
            ("libmicrohttpd", "remote page", HTTPServer.libraryLoadProblem()),
        ]
        return "Libraries loaded when used:\n" + libraries.map { library in
            "  \(library.name) (\(library.use)): " + (library.problem.map { "MISSING: \($0)" } ?? "ok")
        }.joined(separator: "\n")
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
