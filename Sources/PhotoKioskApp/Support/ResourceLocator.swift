import SystemAccess
import SystemPackage

/// Finds files that ship with PhotoKiosk: the sample photos in a source checkout
/// (`assets/photos` above the built binary) or in an installed system (`/usr/share/photokiosk`).
public enum ResourceLocator {
    /// Installed location of the sample photos (deploy/install.sh and the Debian package put them here).
    public static let installedPhotos = "/usr/share/photokiosk/photos"

    /// The bundled sample photo folder, or nil when none can be found.
    public static func bundledPhotos(executablePath: String? = currentExecutablePath()) -> String? {
        if let found = inCheckout("/assets/photos", above: executablePath, where: isDirectory) { return found }
        return isDirectory(installedPhotos) ? installedPhotos : nil
    }

    /// Installed location of the overlay's place table (scripts/install.sh puts it there).
    public static let installedPlaceTable = "/usr/share/photokiosk/places/places.bin"

    /// The place table of a source checkout (`assets/places` above the built binary), else the
    /// installed one; nil when neither exists.
    public static func placeTable(executablePath: String? = currentExecutablePath()) -> String? {
        if let found = inCheckout("/assets/places/places.bin", above: executablePath, where: isRegularFile) { return found }
        return isRegularFile(installedPlaceTable) ? installedPlaceTable : nil
    }

    /// `relative` below the first of the executable's six nearest ancestor folders where
    /// `exists` holds for it: .build/<triple>/release/photokiosk sits four levels below the checkout.
    private static func inCheckout(_ relative: String, above executablePath: String?,
                                   where exists: (String) -> Bool) -> String? {
        guard let exe = executablePath else { return nil }
        var dir = parentDirectory(of: exe)
        for _ in 0..<6 {
            let candidate = dir + relative
            if exists(candidate) { return candidate }
            let up = parentDirectory(of: dir)
            if up == dir { break }
            dir = up
        }
        return nil
    }

    public static func isRegularFile(_ path: String) -> Bool {
        (try? FileSystemCalls.status(FilePath(path)))?.type == .regular
    }

    /// The running binary's real path (symlinks resolved), from /proc/self/exe.
    public static func currentExecutablePath() -> String? {
        FileSystemCalls.resolved(FilePath("/proc/self/exe")).map { String(decoding: $0) }
    }

    public static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public static func isDirectory(_ path: String) -> Bool {
        (try? FileSystemCalls.status(FilePath(path)))?.type == .directory
    }
}
