import ArgumentParser
import Logging
import PhotoKioskApp

/// The `[[source]]` entries of the config (or of the settings file, once the phone page saved
/// a list there), one per line, for the sync unit's script
/// (deploy/photokiosk-sync): it reads them through this parser rather than parsing TOML itself,
/// so the file is checked by the same rules as the kiosk's. Tab-separated: name, rclone remote,
/// interval in minutes, quota in MB (0: none). The folder and status file follow from the name
/// in the state folder (`KioskPaths.folder(of:)`, `KioskPaths.statusFile(of:)`).
struct Sources: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the config's [[source]] entries (tab-separated) for photokiosk-sync.",
        discussion: "Exits with status 78 when the config file has a mistake.")

    @OptionGroup var configFile: ConfigFileOption

    func run() throws {
        var config: KioskConfig
        do {
            config = try configFile.load()
        } catch {
            for mistake in error.allMistakes { printError("photokiosk: \(mistake)") }
            throw ExitCode(GeneralOptions.configErrorExitCode)
        }
        // The phone page's list, where it has saved one, stands in for config.toml's, as in the
        // kiosk (SettingsStore: an unreadable or invalid settings file is ignored, as there).
        let settings = SettingsStore(stateDirectory: Bootstrap.stateDirectory(config: config),
                                     logger: Logger(label: "sources", factory: { _ in
                                         var handler = StreamLogHandler.standardError(label: "photokiosk")
                                         handler.logLevel = .warning   // run every 5 minutes: only what is wrong
                                         return handler
                                     }))
        config = settings.load(over: config)
        for source in config.sources {
            print([source.name, source.remote, String(source.intervalMinutes), String(source.quotaMB)].joined(separator: "\t"))
        }
    }
}
