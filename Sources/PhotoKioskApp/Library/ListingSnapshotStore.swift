import Imaging
import Logging
import SystemAccess
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Keeps the library's `ListingSnapshot` in the cache directory and decides, at the next start,
/// whether it still describes the folders.
///
/// It holds when the roots resolve to the same folders and every folder the scan listed (sub-folders
/// included, each with its own stamp) still has the same device, inode, mtime and ctime: a name
/// added, removed or renamed anywhere changes its folder's mtime and ctime. A timestamp is only as
/// fine as the file system's tick (2 s on FAT, a jiffy on ext4), so a folder stamped within
/// `timestampSlack` of the scan might have changed again after it was read with nothing to show
/// for it: such a snapshot is not trusted (git treats "racily clean" index entries the same way).
/// What stamps cannot see (a photo rewritten in place, a link's target) is caught by the scan that
/// always follows a snapshot start (`LibraryScanner.scan(snapshot:)`); the stamps only decide
/// whether the first frame may come from the snapshot.
public struct ListingSnapshotStore: Sendable {
    public static let fileName = "library-listing"
    /// Folder timestamps this close to the scan are not trusted (FAT's mtime granularity).
    public static let timestampSlack: Int64 = 2_000_000_000
    /// The first read: the header and a few blocks of entries (about 19 KB per 256 photos).
    static let firstRead = 64 << 10
    static let maxBytes = 256 << 20

    public let path: String
    public let logger: Logger
    /// CLOCK_REALTIME in nanoseconds, read when a scan begins; tests move it past the slack.
    public var now: @Sendable () -> Int64 = Self.realtimeNanoseconds

    /// The snapshot `library-listing` in `directory` (the thumbnail cache's).
    public init(directory: String, logger: Logger) {
        path = directory + "/" + Self.fileName
        self.logger = logger
    }

    /// What a start made of the snapshot.
    public enum Verdict {
        case usable(ListingSnapshot.Reader)
        case missing
        /// The folders changed since (or too close to) the scan that wrote it.
        case stale(String)
        case damaged(String)
    }

    /// Reads the snapshot's beginning (the header and the first screenful: what a start waits
    /// for, whatever the library's size; the rest is read when the entries get there) and checks
    /// the header against the folders. A damaged file gets one log line and is removed.
    public func open(roots: [RawPath], hasCaptureDates: Bool) -> Verdict {
        let beginning: [UInt8]
        do {
            beginning = try FileReader.read(path: path, maxBytes: Self.maxBytes, prefix: Self.firstRead)
        } catch {
            if !FileSystemCalls.exists(FilePath(path)) { return .missing }
            return discard("unreadable (\(error))")
        }
        let reader: ListingSnapshot.Reader
        do {
            let path = path
            let isWhole = beginning.count < Self.firstRead
            reader = try ListingSnapshot.Reader(beginning, rest: isWhole ? nil : { () throws(ListingSnapshot.Damage) -> [UInt8] in
                guard let whole = try? FileReader.read(path: path, maxBytes: Self.maxBytes),
                      whole.starts(with: beginning) else {
                    throw ListingSnapshot.Damage(description: "replaced while it was read")
                }
                return whole
            })
        } catch {
            return discard(error.description)
        }
        if let reason = staleness(of: reader.header, roots: roots, hasCaptureDates: hasCaptureDates) {
            return .stale(reason)
        }
        return .usable(reader)
    }

    /// Why the snapshot's header no longer describes the folders; nil when it does.
    func staleness(of header: ListingSnapshot, roots: [RawPath], hasCaptureDates: Bool) -> String? {
        guard header.roots == roots else { return "the photo folders are not the same" }
        guard header.hasCaptureDates == hasCaptureDates else { return "the sort order needs capture dates" }
        for stamp in header.directories {
            guard let info = try? FileSystemCalls.status(stamp.path.filePath) else { return "\(stamp.path) is gone" }
            guard DirectoryStamp(path: stamp.path, status: info) == stamp else { return "\(stamp.path) changed" }
            if max(stamp.modified, stamp.changed) >= header.scannedAt - Self.timestampSlack {
                return "\(stamp.path) changed too close to the last scan to trust its timestamp"
            }
        }
        return nil
    }

    /// The file when damaged: one log line, and it goes (the scan writes a new one).
    func discard(_ reason: String) -> Verdict {
        logger.warning("library: listing snapshot \(path) is damaged (\(reason)); discarded, scanning the folders")
        try? FileSystemCalls.unlink(FilePath(path))
        return .damaged(reason)
    }

    /// Writes the snapshot atomically; a failure (read-only or full cache) is one log line.
    public func save(_ snapshot: ListingSnapshot) {
        do {
            _ = AtomicFile.makeDirectories(AtomicFile.directoryOf(path))
            try AtomicFile.write(snapshot.encoded(), to: path)
        } catch {
            logger.notice("library: listing snapshot not saved: \(error)")
        }
    }

    @Sendable public static func realtimeNanoseconds() -> Int64 { SystemClock.realtimeNanoseconds() }
}
