import Imaging
import Platform

/// How the app notices changes in the photo folders.
public enum LibraryWatchMode: Sendable, Hashable {
    /// Kernel notifications: instant, free when idle; local file systems only.
    case inotify
    /// Periodic rescans (`PollingWatcher`).
    case polling

    /// Polling if any root is on a network or FUSE file system (inotify would stay silent about
    /// changes made elsewhere), inotify otherwise, and where the mount table is unknown.
    public static func recommended(for roots: [RawPath], mounts: MountTable?) -> LibraryWatchMode {
        guard let mounts else { return .inotify }
        let remote = roots.contains { root in
            guard let real = root.resolved(), let type = fileSystemType(of: real, in: mounts) else { return false }
            return isRemote(type)
        }
        return remote ? .polling : .inotify
    }

    static func isRemote(_ type: String) -> Bool {
        let remote: Set<String> = ["nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "ceph",
                                   "davfs", "sshfs", "glusterfs", "lustre", "fuse"]
        return remote.contains(type) || type.hasPrefix("fuse.")
    }

    /// The type of the file system holding `path` (links resolved): the mount with the longest
    /// mount point containing it; the last such mount where several are stacked on one point.
    /// (statfs is not reachable through the Glibc module.)
    public static func fileSystemType(of path: RawPath, in mounts: MountTable) -> String? {
        var best: (length: Int, type: String)?
        for mount in mounts.mounts {
            guard path.isInside(RawPath(bytes: mount.mountPoint)),
                  mount.mountPoint.count >= (best?.length ?? -1) else { continue }
            best = (mount.mountPoint.count, mount.fileSystemType)
        }
        return best?.type
    }
}
