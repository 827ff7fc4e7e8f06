import ArgumentParser
import PhotoKioskApp

/// The `--config` option of every command that reads the config file, and the one rule for it:
/// a file named on the command line must exist, the default one may be absent.
struct ConfigFileOption: ParsableArguments {
    @Option(help: "Config file (default: \(KioskConfig.defaultPath), which may be absent).")
    var config: String?

    var path: String { config ?? KioskConfig.defaultPath }
    var mustExist: Bool { config != nil }

    func load() throws(ConfigError) -> KioskConfig { try KioskConfig.load(path: path, mustExist: mustExist) }
}
