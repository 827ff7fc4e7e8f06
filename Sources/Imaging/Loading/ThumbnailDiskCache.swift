import Basics
import Graphics
import Logging
import SystemAccess
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Thumbnails on disk, so a restarted kiosk paints its grid without decoding every photo again.
///
/// - One file per (path, edge, mtime, size) key, named by a hash of the key; the key is also
///   stored inside and compared on read.
/// - Writes are atomic: a temp file (`.tmp-…`) in the same directory, fsync, rename. A crash
///   leaves at most a temp file, which never counts as an entry and is removed once stale.
/// - A read that finds a corrupt or foreign file removes it and reports a miss.
/// - Total size is bounded: when over `maxBytes`, least recently used entries go (a hit bumps
///   the file's mtime, since many kiosks mount with noatime) down to 90% of the bound. The bump
///   is a metadata write on the SD card, so an entry used again within `recentUseGrain` of its
///   last bump is left alone: a slideshow of cached photos writes nothing.
/// - Write failures (disk full, read-only medium) are logged once and skipped, never fatal.
///
/// Thread-safe: decode workers read and write concurrently.
public final class ThumbnailDiskCache: Sendable {
    public static let defaultMaxBytes = 256 << 20
    /// Temp files older than this are leftovers of a crash, not a write in progress.
    static let staleTempSeconds = 3600
    /// How fine "recently used" is: a hit marks its entry at most once per this many seconds.
    static let recentUseGrain: Int64 = 86_400

    public let directory: RawPath
    public let maxBytes: Int
    private let logger: Logger
    /// Told of every write's outcome: a failing card is reported there once for all writers.
    private let health: StorageHealth
    private struct State {
        /// nil until the first write needs it (`accountedBytes`).
        var totalBytes: Int?
        var writeFailures = 0
        var tempCounter = 0
    }
    private let state = Locked(State())

    /// Opens (creating if needed) a cache in `directory`. Creation failures are logged and
    /// show up as failed writes; the cache never throws. The entries are not looked at here:
    /// the app opens its cache on the loop thread before its first frame, and a cache of
    /// 10,000 thumbnails is 10,000 stat calls. The first write (on a decode worker) adds them
    /// up, and removes what a crash left.
    public init(directory: RawPath, maxBytes: Int = ThumbnailDiskCache.defaultMaxBytes,
                logger: Logger = Logger(label: "photokiosk.thumbnail-cache"), health: StorageHealth = .shared) {
        self.directory = directory
        self.maxBytes = maxBytes
        self.logger = logger
        self.health = health
        if let failure = FileIO.makeDirectories(directory) {
            logger.warning("thumbnail cache \(directory) unavailable: \(FileIO.errorText(failure))")
        }
    }

    /// `$XDG_CACHE_HOME/photokiosk`, else `$HOME/.cache/photokiosk`; nil when neither is set
    /// (a system service then configures e.g. `/var/cache/photokiosk`).
    public static func defaultDirectory(environment: [String: String]) -> RawPath? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return RawPath(xdg).appending("photokiosk")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return RawPath(home).appending(".cache").appending("photokiosk")
        }
        return nil
    }

    /// `defaultDirectory` for this process's environment.
    public static func defaultDirectory() -> RawPath? {
        var environment: [String: String] = [:]
        for name in ["XDG_CACHE_HOME", "HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return defaultDirectory(environment: environment)
    }

    /// Bytes of entries this process knows of (temp files excluded).
    public var totalBytes: Int { accountedBytes() }
    /// Failed writes so far (only the first is logged).
    public var writeFailureCount: Int { state.withLock { $0.writeFailures } }

    /// The cached thumbnail for `key`, or nil. Corrupt entries are removed.
    public func read(_ key: ThumbnailCacheKey) -> Bitmap? {
        thumbnail(for: key)?.bitmap
    }

    /// The cached thumbnail for `key` with the clip duration stored beside it, or nil. Corrupt
    /// entries, and those of an older format, are removed.
    public func thumbnail(for key: ThumbnailCacheKey) -> CachedThumbnail? {
        let path = directory.appending(key.fileName)
        guard let fd = try? FileDescriptor.openFile(path.filePath, .readOnly) else { return nil }
        defer { fd.closeQuietly() }
        guard let info = try? fd.stat() else { return nil }
        let expectedKey = key.serialized
        guard let entry = readEntry(fd, fileSize: Int(info.size), expectedKey: expectedKey) else {
            logger.info("removing corrupt or outdated thumbnail cache entry \(path)")
            removeEntry(path, bytes: Int(info.size))
            return nil
        }
        // mark as recently used for trimming, unless it was marked within the grain (a write)
        if SystemClock.realtimeSeconds() - Int64(info.st_mtim.tv_sec) >= Self.recentUseGrain { try? fd.touch() }
        return entry
    }

    private func readEntry(_ fd: FileDescriptor, fileSize: Int, expectedKey: [UInt8]) -> CachedThumbnail? {
        var head = [UInt8](repeating: 0, count: ThumbnailFile.headerSize + expectedKey.count)
        guard fileSize >= head.count,
              head.withUnsafeMutableBytes({ FileIO.read(fd, into: $0.baseAddress!, count: $0.count) }),
              let header = ThumbnailFile.parseHeader(head),
              header.keyLength == expectedKey.count, header.fileSize == fileSize,
              Array(head[ThumbnailFile.headerSize...]) == expectedKey
        else { return nil }
        let bitmap = Bitmap(width: header.width, height: header.height)
        let rowBytes = header.width * 4
        if bitmap.stride == rowBytes {
            guard FileIO.read(fd, into: bitmap.pixels, count: header.pixelBytes) else { return nil }
        } else {
            for y in 0..<header.height {
                guard FileIO.read(fd, into: bitmap.row(y), count: rowBytes) else { return nil }
            }
        }
        let packed = bitmap.stride == rowBytes
            ? pixelChecksum(UnsafeRawBufferPointer(start: bitmap.pixels, count: header.pixelBytes))
            : ThumbnailFile.packedPixels(of: bitmap).withUnsafeBytes { pixelChecksum($0) }
        return packed == header.checksum ? CachedThumbnail(bitmap: bitmap, clipDuration: header.clipDuration) : nil
    }

    /// Stores `bitmap` for `key` (with a clip's duration). Returns false if it could not be written; the first failure is
    /// logged, later ones only counted. Only XRGB8888 bitmaps are stored (others return false).
    @discardableResult
    public func write(_ bitmap: Bitmap, for key: ThumbnailCacheKey, clipDuration: Duration? = nil) -> Bool {
        guard bitmap.format == .xrgb8888, bitmap.width > 0, bitmap.height > 0,
              bitmap.width <= ThumbnailFile.maxDimension, bitmap.height <= ThumbnailFile.maxDimension
        else { return false }
        // Counted before this entry is on disk, which is added below.
        let counted = accountedBytes()
        let pixels = ThumbnailFile.packedPixels(of: bitmap)
        let checksum = pixels.withUnsafeBytes { pixelChecksum($0) }
        let header = ThumbnailFile.header(for: bitmap, key: key.serialized, checksum: checksum, clipDuration: clipDuration)
        let name = key.fileName
        let final = directory.appending(name)
        let counter = state.withLock { state -> Int in
            state.tempCounter += 1
            return state.tempCounter
        }
        let temp = directory.appending(".tmp-\(getpid())-\(counter)-\(name)")
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.openFile(temp.filePath, .writeOnly, options: [.create, .exclusiveCreate],
                                             permissions: .ownerReadWrite)
        } catch {
            return failed("create \(temp)", error.errno, path: temp)
        }
        var failure = header.withUnsafeBytes { FileIO.write(fd, $0) }
        if failure == nil { failure = pixels.withUnsafeBytes { FileIO.write(fd, $0) } }
        if failure == nil { do { try fd.sync() } catch { failure = error } }
        fd.closeQuietly()
        if failure == nil {
            do { try FileSystemCalls.rename(temp.filePath, to: final.filePath) } catch { failure = error.errno }
        }
        if let failure {
            try? FileSystemCalls.unlink(temp.filePath)
            return failed("write \(final)", failure, path: final)
        }
        health.recordSuccess()
        let size = header.count + pixels.count
        let over = state.withLock { state -> Bool in
            let total = (state.totalBytes ?? counted) + size
            state.totalBytes = total
            return total > maxBytes
        }
        if over { trim(keeping: name) }
        return true
    }

    /// A failed write is dropped, never retried: the photo is shown from its decoded bitmap
    /// anyway, and the next time it is needed the write is tried once more.
    private func failed(_ action: String, _ code: Errno, path: RawPath) -> Bool {
        let first = state.withLock { state -> Bool in
            state.writeFailures += 1
            return state.writeFailures == 1
        }
        // EIO, EROFS, ENOSPC: the storage's news, said once by `health` for every writer.
        if health.recordFailure(path: path.description, errno: code) { return false }
        if first {
            logger.warning("thumbnail cache: cannot \(action): \(FileIO.errorText(code)); not caching (logged once)")
        }
        return false
    }

    private func removeEntry(_ path: RawPath, bytes: Int) {
        if (try? FileSystemCalls.unlink(path.filePath)) != nil {
            state.withLock { state in state.totalBytes = state.totalBytes.map { max(0, $0 - bytes) } }
        }
    }

    /// Deletes least recently used entries until the total is at most 90% of `maxBytes`.
    /// `keeping` (the entry just written) is never chosen, so a write is always readable.
    public func trim(keeping: String? = nil) {
        var entries = listEntries()
        var total = entries.reduce(0) { $0 + $1.bytes }
        let target = maxBytes - maxBytes / 10
        entries.sort {
            $0.lastUse != $1.lastUse ? $0.lastUse < $1.lastUse : $0.name.lexicographicallyPrecedes($1.name)
        }
        let kept = keeping.map { Array($0.utf8) }
        for entry in entries where total > target && entry.name != kept {
            if (try? FileSystemCalls.unlink(directory.appending(entry.name).filePath)) != nil { total -= entry.bytes }
        }
        state.withLock { $0.totalBytes = total }
    }

    struct EntryInfo {
        var name: [UInt8]
        var bytes: Int
        /// mtime in nanoseconds.
        var lastUse: Int64
    }

    /// Cache entries on disk, temp files excluded.
    func listEntries() -> [EntryInfo] {
        guard let names = FileIO.directoryEntries(directory) else { return [] }
        let suffix = Array(ThumbnailFile.suffix.utf8)
        return names.compactMap { name in
            guard name.first != UInt8(ascii: "."), name.count > suffix.count,
                  Array(name.suffix(suffix.count)) == suffix else { return nil }
            guard let info = FileIO.linkStatus(directory.appending(name)), info.type == .regular else { return nil }
            return EntryInfo(name: name, bytes: Int(info.size),
                             lastUse: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
        }
    }

    /// Number of entries on disk (temp files excluded).
    public var entryCount: Int { listEntries().count }

    /// The size of the entries, added up (and temp files left by a crash removed) the first
    /// time it is asked for.
    private func accountedBytes() -> Int {
        if let total = state.withLock({ $0.totalBytes }) { return total }
        let total = removeStaleTempFiles()
        return state.withLock { state in
            if state.totalBytes == nil { state.totalBytes = total }
            return state.totalBytes!
        }
    }

    /// Removes temp files left by a crash; returns the size of the real entries.
    private func removeStaleTempFiles() -> Int {
        guard let names = FileIO.directoryEntries(directory) else { return 0 }
        let now = SystemClock.realtimeSeconds()
        for name in names where name.starts(with: Array(".tmp-".utf8)) {
            let path = directory.appending(name)
            if let info = FileIO.linkStatus(path), Int(now - Int64(info.st_mtim.tv_sec)) > Self.staleTempSeconds {
                try? FileSystemCalls.unlink(path.filePath)
            }
        }
        return listEntries().reduce(0) { $0 + $1.bytes }
    }
}
