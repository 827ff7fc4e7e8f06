import Glibc
import Imaging
import SystemAccess
import SystemPackage

/// Notices a photo folder that vanished, came back, or was mounted over (a USB stick or network
/// share unplugged and plugged in again). inotify cannot: an unmount only removes its watches,
/// and a folder that reappears is not watched. Checked now and then; a change means rescan.
struct RootPresence: Equatable {
    /// Device and inode of each root (links resolved), nil for a root that is not there.
    private var identities: [FileIdentityPair?]

    /// Whether some folder is not there (not mounted yet, renamed away).
    var isMissingAny: Bool { identities.contains(nil) }

    struct FileIdentityPair: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    init(roots: [RawPath]) {
        identities = roots.map { root in
            guard let info = try? FileSystemCalls.status(root.filePath), info.type == .directory else { return nil }
            return FileIdentityPair(device: UInt64(info.deviceID.rawValue), inode: UInt64(info.inode.rawValue))
        }
    }
}

/// The files of a rescan, gathered on the loop thread until it finishes.
final class ScanCollector {
    var files: [ScannedFile] = []
}
