import ArgumentParser
import Glibc
import Imaging
import Logging
import PhotoKioskApp

extension Run {
    /// The MQTT door when `[mqtt] url` is set: the password read from its file, the frame's id
    /// from the host name unless given. A broker that is down is retried, not an error.
    static func startMQTT(_ config: KioskConfig, app: KioskApp, logger: Logger) throws -> MQTTControl? {
        guard let address = config.mqtt.address else { return nil }
        var password = config.mqtt.password
        if let file = config.mqtt.passwordFile {
            do {
                let bytes = try FileReader.read(path: file, maxBytes: 4096)
                password = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            } catch {
                printError("photokiosk: mqtt.password_file: cannot read \(file): \(error)")
                throw ExitCode(GeneralOptions.configErrorExitCode)
            }
        }
        let id = config.mqtt.id ?? Self.topicName(hostName())
        let control = MQTTControl(app: app, settings: config.mqtt, address: address, id: id, password: password,
                                  version: PhotoKioskCommand.configuration.version, logger: logger)
        let paths = Bootstrap.paths(config: config)
        control.sources = config.sources.map { ($0.name, paths.statusFile(of: $0)) }
        try control.start()
        logger.info("MQTT: \(address.useTLS ? "mqtts" : "mqtt")://\(address.host):\(address.port) as \(id) (topics \(control.base)/…)")
        return control
    }

    static func hostName() -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        guard buffer.withUnsafeMutableBufferPointer({ gethostname($0.baseAddress!, 255) }) == 0 else { return "photokiosk" }
        return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// A host name as a topic word: letters, digits, "-" and "_" kept, anything else "_".
    static func topicName(_ host: String) -> String {
        let word = String(host.prefix(64).map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
        return word.isEmpty ? "photokiosk" : word
    }
}
