import Logging
import PhotoKioskApp
import Platform

extension Run {
    /// The frame's Syncthing asked for the phone folder's state when `[syncthing] enabled`. A key
    /// file that cannot be read is one log line (the frame shows its photos all the same); the
    /// key itself is never logged.
    static func startSyncthing(_ config: KioskConfig, loop: EventLoop, logger: Logger) -> SyncthingMonitor? {
        let settings = config.syncthing
        guard settings.enabled, let address = settings.address, let keyFile = settings.apiKeyFile,
              let folderID = settings.folderID else { return nil }
        let key: String
        switch SyncthingAPIKey.read(from: keyFile) {
        case .success(let text): key = text
        case .failure(let problem):
            logger.error("syncthing: \(problem); the phone page shows no sync state")
            return nil
        }
        guard let monitor = SyncthingMonitor(loop: loop, address: address, apiKey: key, folderID: folderID) else {
            logger.error("syncthing: the API key in \(keyFile) or the folder ID has characters an HTTP header cannot carry")
            return nil
        }
        monitor.onChange = { state in logger.info("syncthing: folder \(folderID): \(state.description)") }
        monitor.start()
        logger.info("syncthing: asking \(settings.apiAddress) about folder \(folderID) every 5 s")
        return monitor
    }
}
