import Imaging
#if canImport(Glibc)
import Glibc
#endif

/// How the app notices changes in the photo folders.
public enum LibraryWatchMode: Sendable, Hashable {
    /// Kernel notifications: instant, free when idle; local file systems only.
    case inotify
    /// Periodic rescans (`PollingWatcher`).
    case polling

    /// Polling if any root is on a network or FUSE file system (inotify would stay silent about
    /// changes made elsewhere), inotify otherwise.
    public static func recommended(for roots: [RawPath]) -> LibraryWatchMode {
        guard let mountInfo = readMountInfo() else { return .inotify }
        let remote = roots.contains { root in
            guard let real = root.resolved(),
                  let type = fileSystemType(of: real, mountInfo: mountInfo) else { return false }
            return isRemote(type)
        }
        return remote ? .polling : .inotify
    }

    static func isRemote(_ type: String) -> Bool {
        let remote: Set<String> = ["nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "ceph",
                                   "davfs", "sshfs", "glusterfs", "lustre", "fuse"]
        return remote.contains(type) || type.hasPrefix("fuse.")
    }

    /// The type of the file system holding `path`: the mount in /proc/self/mountinfo with the
    /// longest mount point containing it. (statfs is not reachable through the Glibc module.)
    static func fileSystemType(of path: RawPath, mountInfo: [UInt8]) -> String? {
        var best: (length: Int, type: String)?
        for line in mountInfo.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " ")).map(Array.init)
            // id parent major:minor root mountpoint options [optional…] - fstype source superoptions
            guard fields.count > 6, let dash = fields.firstIndex(of: [UInt8(ascii: "-")]),
                  dash + 1 < fields.count else { continue }
            let mountPoint = RawPath(bytes: unescapeOctal(fields[4]))
            guard path.isInside(mountPoint), mountPoint.bytes.count >= (best?.length ?? -1) else { continue }
            best = (mountPoint.bytes.count, String(decoding: fields[dash + 1], as: UTF8.self))
        }
        return best?.type
    }

    /// `fileSystemType` for tests, which cannot see internals in release builds.
    public static func fileSystemTypeForTesting(of path: RawPath, mountInfo: [UInt8]) -> String? {
        fileSystemType(of: path, mountInfo: mountInfo)
    }

    /// mountinfo writes space, tab, newline and backslash as \ooo.
    private static func unescapeOctal(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\\"), i + 3 < bytes.count,
               let value = UInt8(String(decoding: bytes[(i + 1)...(i + 3)], as: UTF8.self), radix: 8) {
                out.append(value)
                i += 4
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    private static func readMountInfo() -> [UInt8]? {
        let fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            result += chunk[0..<n]
        }
        return result
    }
}
