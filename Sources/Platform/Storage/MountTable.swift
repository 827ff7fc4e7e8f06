/// One mounted file system, as the kernel lists it in /proc/self/mountinfo.
public struct Mount: Equatable, Sendable {
    /// Where it is mounted, as bytes (mountinfo's \ooo escapes undone).
    public var mountPoint: [UInt8]
    /// The file system type: "ext4", "vfat", "nfs4", "fuse.sshfs", …
    public var fileSystemType: String

    public init(mountPoint: [UInt8], fileSystemType: String) {
        self.mountPoint = mountPoint
        self.fileSystemType = fileSystemType
    }
}

/// The kernel's mount table, parsed from the text of /proc/self/mountinfo (read and watched by
/// `SystemMountTable`). What a mount means for the app (poll a network share, rescan a folder
/// that was mounted over) is the app's to decide.
public struct MountTable: Equatable, Sendable {
    public var mounts: [Mount]

    public init(mounts: [Mount]) {
        self.mounts = mounts
    }

    /// Parses mountinfo lines; a line without the fields it needs is skipped.
    public init(mountInfo: [UInt8]) {
        mounts = mountInfo.split(separator: UInt8(ascii: "\n")).compactMap { line in
            let fields = line.split(separator: UInt8(ascii: " ")).map(Array.init)
            // id parent major:minor root mountpoint options [optional…] - fstype source superoptions
            guard fields.count > 6, let dash = fields.firstIndex(of: [UInt8(ascii: "-")]),
                  dash > 5, dash + 1 < fields.count else { return nil }
            return Mount(mountPoint: Self.unescapeOctal(fields[4]),
                         fileSystemType: String(decoding: fields[dash + 1], as: UTF8.self))
        }
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
}

/// Where the app learns about mounts: the table now, and a call after each change (a USB stick
/// of photos plugged in or pulled). `SystemMountTable` is the kernel's; tests give a fake.
public protocol MountTableSource: AnyObject {
    /// The mounts now; nil where the table cannot be read (no /proc).
    func currentMounts() -> MountTable?
    /// Calls `onChange` on the loop thread after each change of the table, for as long as the
    /// source lives. False where changes cannot be watched (no /proc): nothing is called then.
    func watchChanges(on loop: EventLoop, _ onChange: @escaping () -> Void) throws(PlatformError) -> Bool
}
