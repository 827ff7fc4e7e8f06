/// The phone folder's sync state as the phone page, `doctor` and the status JSON word it, from
/// the last answers of Syncthing's REST API (`SyncthingFolderStatus`, `SyncthingConnections`).
public enum SyncthingState: Equatable, Sendable {
    /// Before the first answer (the first poll is under way).
    case starting
    case inSync
    case syncing(files: Int, bytes: Int)
    /// Syncthing is checking the folder on disk (after a start or a change it heard of).
    case scanning
    /// No phone connected; `since` is how long the kiosk has not seen one (nil: not since it started).
    case phoneNotConnected(since: Duration?)
    case folderError(String)
    case notReachable(String)

    /// The state from a folder answer and a connections answer; `disconnectedFor` is the time
    /// since a device was last seen connected (the reader keeps it on the monotonic clock).
    public init(folder: SyncthingFolderStatus, connections: SyncthingConnections, disconnectedFor: Duration?) {
        if folder.state == "error" || !folder.error.isEmpty {
            self = .folderError(folder.error.isEmpty ? "the folder stopped" : folder.error)
        } else if folder.needFiles > 0 || folder.state == "syncing" || folder.state == "sync-preparing" {
            // Files still to come while no phone is connected cannot arrive: say that instead.
            self = connections.connectedDevices == 0 ? .phoneNotConnected(since: disconnectedFor)
                : .syncing(files: folder.needFiles, bytes: folder.needBytes)
        } else if folder.state == "scanning" || folder.state == "scan-waiting" {
            self = .scanning
        } else if connections.connectedDevices == 0 {
            self = .phoneNotConnected(since: disconnectedFor)
        } else {
            self = .inSync
        }
    }

    /// A word for machines (the status JSON's `state`).
    public var code: String {
        switch self {
        case .starting: "starting"
        case .inSync: "in-sync"
        case .syncing: "syncing"
        case .scanning: "scanning"
        case .phoneNotConnected: "phone-not-connected"
        case .folderError: "error"
        case .notReachable: "not-reachable"
        }
    }

    /// One line for people.
    public var description: String {
        switch self {
        case .starting: return "asking Syncthing"
        case .inSync: return "in sync"
        case .syncing(let files, let bytes):
            return "syncing \(files) \(files == 1 ? "file" : "files") (\(Self.megabytes(bytes)))"
        case .scanning: return "checking the folder"
        case .phoneNotConnected(let since):
            guard let since else { return "phone not connected since the frame started" }
            return "phone not connected since \(Self.span(since)) ago"
        case .folderError(let message): return "Syncthing folder error: \(message)"
        case .notReachable(let reason): return "Syncthing not reachable: \(reason)"
        }
    }

    /// "0.4 MB", "12 MB": one decimal below 10 MB.
    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return tenths < 100 ? "\(tenths / 10).\(tenths % 10) MB" : "\((bytes + 500_000) / 1_000_000) MB"
    }

    /// "40 s", "12 min", "3 h", "2 days".
    static func span(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds)
        if seconds < 120 { return "\(max(seconds, 0)) s" }
        if seconds < 7200 { return "\(seconds / 60) min" }
        if seconds < 172_800 { return "\(seconds / 3600) h" }
        return "\(seconds / 86400) days"
    }
}
