import SystemAccess

/// What the last sync of a source left in its status file (written by deploy/photokiosk-sync,
/// atomically, as TOML, at `KioskPaths.statusFile(of:)`): the kiosk's `doctor` reads it. Only times, counts and rclone's error in
/// words: the sync never writes a credential there (its test looks for the password).
public struct SourceStatus: Equatable, Sendable {
    /// "2026-11-28T10:40:00Z" of the last finished sync that succeeded; nil: none yet.
    public var lastSync: String?
    /// When the sync was last tried, whatever came of it.
    public var lastAttempt: String?
    /// Photos in the source's folder after that sync.
    public var photos: Int = 0
    /// Why the last attempt failed, in words; nil when it succeeded.
    public var error: String?
    /// Failures in a row (the backoff doubles the wait with each).
    public var failures: Int = 0
    /// Set when the quota left photos out: how many, and the quota.
    public var quotaNote: String?

    public init() {}

    /// The status file's fields; nil when there is none or it cannot be read as TOML.
    public static func read(_ path: String) -> SourceStatus? {
        guard let bytes = AtomicFile.read(path),
              let table = try? TOMLParser.parse(String(decoding: bytes, as: UTF8.self)) else { return nil }
        var status = SourceStatus()
        func text(_ key: String) -> String? {
            if case .string(let s)? = table[key]?.kind, !s.isEmpty { return s }
            return nil
        }
        func number(_ key: String) -> Int {
            if case .integer(let i)? = table[key]?.kind { return Int(i) }
            return 0
        }
        status.lastSync = text("last_sync")
        status.lastAttempt = text("last_attempt")
        status.photos = number("photos")
        status.error = text("error")
        status.failures = number("failures")
        status.quotaNote = text("quota")
        return status
    }

    /// One line for `doctor` and logs.
    public var summary: String {
        var words = lastSync.map { "last sync \($0), \(photos) photos" } ?? "never synced"
        if let quotaNote { words += " (\(quotaNote))" }
        if let error { words += "; FAILING since \(lastAttempt ?? "?") (\(failures) in a row): \(error)" }
        return words
    }
}
