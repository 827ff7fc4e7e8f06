import Imaging
import SystemPackage

/// A device and inode: what identifies a file or directory whatever path reached it.
public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
}

/// One photo file as a scan found it.
public struct ScannedFile: Hashable, Sendable, CustomStringConvertible {
    public var path: RawPath
    public var type: PhotoFileType
    public var identity: FileIdentity
    public var size: Int64
    /// Modification time, seconds and nanoseconds since the epoch.
    public var modificationSeconds: Int64
    public var modificationNanoseconds: Int64
    /// When the photo was taken (EXIF DateTimeOriginal) in seconds since the epoch, if the scan
    /// was given a way to read it and the file has one.
    public var captureDate: Int64?

    public init(path: RawPath, type: PhotoFileType, identity: FileIdentity, size: Int64,
                modificationSeconds: Int64, modificationNanoseconds: Int64 = 0, captureDate: Int64? = nil) {
        self.path = path
        self.type = type
        self.identity = identity
        self.size = size
        self.modificationSeconds = modificationSeconds
        self.modificationNanoseconds = modificationNanoseconds
        self.captureDate = captureDate
    }

    /// The date the library sorts by: when it was taken, else when the file was last written.
    public var sortDate: Int64 { captureDate ?? modificationSeconds }

    public var description: String { path.description }
}

/// Something the scan passed over, and why. Each is logged once.
public struct SkippedEntry: Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// opendir/stat failed with this errno (permissions, I/O error, vanished mid-scan).
        case unreadable(errno: Errno)
        /// A symbolic link whose target does not exist.
        case brokenLink
        /// A symbolic link leading out of every configured folder.
        case outsideRoots
    }

    public var path: RawPath
    public var reason: Reason

    public var description: String {
        switch reason {
        case .unreadable(let code): return "\(path): unreadable (\(code))"
        case .brokenLink: return "\(path): broken symbolic link"
        case .outsideRoots: return "\(path): link leads outside the photo folders"
        }
    }
}
