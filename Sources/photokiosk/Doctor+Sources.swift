import PhotoKioskApp

extension Doctor {
    /// Each `[[source]]` and what its last sync left in its status file (photokiosk-sync writes
    /// it; the kiosk never syncs itself).
    static func sourcesReport(_ config: KioskConfig) -> String {
        guard !config.sources.isEmpty else { return "Sources: none (add a [[source]] to sync a server's folder; docs/sources.md)" }
        let paths = Bootstrap.paths(config: config)
        var lines = ["Sources (synced by photokiosk-sync.timer into \(paths.stateDirectory)/sources):"]
        for source in config.sources {
            let state = SourceStatus.read(paths.statusFile(of: source))?.summary ?? "no status yet (the timer has not run)"
            lines.append("  \(source.name) (\(source.remote), every \(source.intervalMinutes) min"
                         + (source.quotaMB > 0 ? ", quota \(source.quotaMB) MB" : "") + "): \(state)")
        }
        return lines.joined(separator: "\n")
    }
}
