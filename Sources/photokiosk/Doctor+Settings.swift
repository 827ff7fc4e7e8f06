import Logging
import PhotoKioskApp

extension Doctor {
    /// Which settings come from the settings file the remote page writes (they win over
    /// config.toml), or why that file is ignored.
    static func settingsReport(over base: KioskConfig) -> String {
        let store = SettingsStore(stateDirectory: Bootstrap.stateDirectory(config: base),
                                  logger: Logger(label: "doctor", factory: { _ in SwiftLogNoOpLogHandler() }))
        _ = store.load(over: base)
        if let problem = store.problem {
            return "Settings file: \(store.file): IGNORED (\(problem)); config.toml's values are used until a setting is saved on the remote page"
        }
        let values = store.heldValues
        guard !values.isEmpty else {
            return "Settings file: \(store.file): none saved; every setting comes from config.toml"
        }
        return (["Settings file: \(store.file): \(counted(values.count, "setting")) from the remote page, over config.toml:"]
                + values.map { "  \($0)" }).joined(separator: "\n")
    }
}
