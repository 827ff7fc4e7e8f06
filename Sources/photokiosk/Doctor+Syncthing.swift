import PhotoKioskApp
import Platform

extension Doctor {
    /// The frame's Syncthing as `run` would ask it (`[syncthing]`): the key file read, one poll of
    /// the folder's state and the connections, within a few seconds. The key is never printed.
    static func syncthingReport(_ config: KioskConfig) -> String {
        let settings = config.syncthing
        guard settings.enabled else { return "Syncthing: off (set [syncthing] enabled, see docs/syncthing.md)" }
        guard let address = settings.address, let keyFile = settings.apiKeyFile, let folderID = settings.folderID else {
            return "Syncthing: BROKEN: [syncthing] needs api_address, api_key_file and folder_id (see the config check above)"
        }
        let key: String
        switch SyncthingAPIKey.read(from: keyFile) {
        case .success(let text): key = text
        case .failure(let problem): return "Syncthing: BROKEN: \(problem)"
        }
        let state: SyncthingState
        do {
            let loop = try EventLoop(signals: [])
            guard let monitor = SyncthingMonitor(loop: loop, address: address, apiKey: key, folderID: folderID) else {
                return "Syncthing: BROKEN: the API key in \(keyFile) or the folder ID has characters an HTTP header cannot carry"
            }
            monitor.start()
            let deadline = loop.now + 6
            while monitor.state == .starting, loop.now < deadline { _ = try loop.runOnce(timeout: max(deadline - loop.now, 0)) }
            state = monitor.state
            monitor.stop()
        } catch {
            return "Syncthing: cannot ask: \(error)"
        }
        let verdict = switch state {
        case .notReachable, .folderError, .starting: "PROBLEM: "
        default: "ok, "
        }
        return "Syncthing: \(settings.apiAddress), folder \(folderID): \(verdict)\(state.description)"
    }
}
