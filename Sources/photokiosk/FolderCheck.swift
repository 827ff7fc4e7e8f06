import Imaging
import Logging
import PhotoKioskApp
import Platform

/// What `doctor` finds for one photo folder, in the order a frame owner would look: hidden by
/// the service's sandbox, missing, not readable by the service's user, or how many photos it holds.
struct FolderCheck {
    let folder: String
    /// Why the service cannot show the folder's photos; nil when it can.
    private(set) var problem: String?
    /// Photos found (listed as this process); nil when the folder could not be listed.
    private(set) var photoCount: Int?

    /// Paths the unit hides (deploy/photokiosk.service): ProtectHome=yes, PrivateTmp=yes.
    static let hiddenBySandbox: [(prefix: String, why: String)] = [
        ("/home", "ProtectHome=yes"), ("/root", "ProtectHome=yes"), ("/run/user", "ProtectHome=yes"),
        ("/tmp", "PrivateTmp=yes: it has a /tmp of its own"), ("/var/tmp", "PrivateTmp=yes: it has a /var/tmp of its own"),
    ]

    init(folder: String, account: FolderAccess.Account) {
        self.folder = folder
        if let hidden = Self.hiddenBySandbox.first(where: { folder == $0.prefix || folder.hasPrefix($0.prefix + "/") }) {
            problem = "hidden from the photokiosk service by its sandbox (\(hidden.why)); use a folder outside \(hidden.prefix), e.g. /var/lib/photokiosk/photos or /media/photos"
        } else if !ResourceLocator.isDirectory(folder) {
            problem = "does not exist (yet): it is watched for, and its photos appear when it does (a USB stick not mounted?)"
        } else if let denied = FolderAccess.problem(listing: folder, as: account) {
            problem = "NOT readable by the service: \(denied)"
        }
        guard ResourceLocator.isDirectory(folder) else { return }
        var quiet = Logger(label: "photokiosk.doctor")
        quiet.logLevel = .critical   // unreadable entries are the report's business, not log lines
        photoCount = LibraryScanner(roots: [RawPath(folder)], logger: quiet).scanAll().summary.fileCount
    }

    /// One phrase after the folder's name.
    var verdict: String {
        if let problem { return problem + (photoCount.map { " (\(counted($0, "photo")) in it)" } ?? "") }
        guard let photoCount, photoCount > 0 else {
            return "no photos: none of its files is a JPEG, PNG, HEIC/HEIF, AVIF or WebP photo"
        }
        return "ok, " + counted(photoCount, "photo")
    }
}
