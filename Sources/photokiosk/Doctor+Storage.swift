import PhotoKioskApp
import SystemAccess
import SystemPackage

extension Doctor {
    /// Whether the state folder (saved order, settings, resume state) takes writes now.
    static func storageReport(_ config: KioskConfig) -> String {
        let folder = Bootstrap.stateDirectory(config: config)
        guard FileSystemCalls.exists(FilePath(folder)) else {
            return "State storage: \(folder): not there yet (the kiosk creates it on its first save)"
        }
        return "State storage: \(folder): \(StorageProbe.check(folder: folder))"
    }
}
