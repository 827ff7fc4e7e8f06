extension KioskPaths {
    /// The cache folder to use: `cacheDirectory`, unless it sits on a read-only file system
    /// (a read-only root, where only the state folder is writable) and the config did not name
    /// it: then `<state>/cache`, so thumbnails are made once rather than after every start.
    /// A cache named in the config is kept as it is (its write failures are logged once).
    /// - Parameter isReadOnly: whether a folder is on a read-only file system (nil: unknown).
    public func usableCacheDirectory(configured: Bool, isReadOnly: (String) -> Bool?) -> (directory: String, movedFrom: String?) {
        guard !configured, isReadOnly(cacheDirectory) == true, isReadOnly(stateDirectory) == false else {
            return (cacheDirectory, nil)
        }
        return (stateDirectory + "/cache", cacheDirectory)
    }
}
