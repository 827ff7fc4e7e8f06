/// `doctor`'s look at the state folder's storage: one small file written the way the kiosk
/// writes its state (AtomicFile: temporary file, fsync, rename, directory fsync) and removed.
/// A failing SD card or a file system ext4 remounted read-only answers EIO or EROFS here as it
/// does to the running kiosk (whose own count is on its status JSON).
public enum StorageProbe {
    public static let fileName = ".photokiosk-write-check"

    /// "writes work", or what failed and what it means.
    public static func check(folder: String, failing: (AtomicFile.Step) -> Bool = { _ in false }) -> String {
        let health = StorageHealth()   // the probe's own: doctor is not the kiosk
        let path = folder + "/" + fileName
        do throws(AtomicFile.WriteError) {
            try AtomicFile.write(Array("photokiosk doctor write check\n".utf8), to: path, health: health, failing: failing)
        } catch {
            AtomicFile.remove(path)
            if let failing = health.failing {
                return failing.isReadOnly
                    ? "READ-ONLY (\(StorageHealth.errnoText(error.errno))): the kernel remounted it or it is mounted so; state and caches are not saved until it is writable (a remount or reboot after the card is fixed)"
                    : "FAILING (\(StorageHealth.errnoText(error.errno)) at \(error.step)): the card or disk refuses writes; the kiosk keeps showing photos and says so on its status"
            }
            return "not writable by this user (\(error.errno)); run doctor as the service's user"
        }
        AtomicFile.remove(path)
        return "writes work"
    }
}
