import PhotoKioskApp

/// Checks, before any work, that an output file's folder exists, so "--out /missing/x.png"
/// names the missing folder instead of failing at the end with "x.png: no such file".
enum OutputPath {
    static func checkFolder(of path: String, option: String) throws {
        let folder = ResourceLocator.parentDirectory(of: path)
        guard !ResourceLocator.isDirectory(folder) else { return }
        throw CommandFailure("\(option) \(path): the folder \(folder) does not exist")
    }
}
