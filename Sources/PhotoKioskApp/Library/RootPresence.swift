import Glibc
import Imaging

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
            var info = stat()
            guard root.withCString({ stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
            return FileIdentityPair(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
    }
}

/// The files of a rescan, gathered on the loop thread until it finishes.
final class ScanCollector {
    var files: [ScannedFile] = []
}
