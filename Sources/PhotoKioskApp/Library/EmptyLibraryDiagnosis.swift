import Platform
import SystemAccess
import SystemPackage

/// Why there is no photo to show, folder by folder, and what to do about it, in words a frame's
/// owner can act on without a terminal ("/home/pi/Pictures can't be read by the photokiosk
/// service (the unit's ProtectHome hides /home)"). The frame shows this instead of a blank
/// screen (`KioskApp`'s no-photos screen); `doctor` can say the same.
public struct EmptyLibraryDiagnosis: Equatable, Sendable {
    public enum FolderState: Equatable, Sendable {
        /// Nothing at that path.
        case missing
        /// Missing, or an empty folder that is not a mount point, where removable media and
        /// shares are mounted (/media, /mnt, /run/media): the stick or share is not there.
        case notMounted
        /// There, but this process may not list it; `hiddenByProtectHome` when it lies under a
        /// home folder that the service's sandbox (ProtectHome) hides.
        case unreadable(hiddenByProtectHome: Bool)
        case notAFolder
        case empty
        /// Files, but none of a format the frame shows (a few of their names as examples).
        case onlyOtherFiles(count: Int, examples: [String])
        /// Photos are there (the scan may not have finished, or they are unreadable files).
        case hasPhotos(count: Int)
    }

    public struct Folder: Equatable, Sendable {
        public var path: String
        public var state: FolderState
    }

    public var folders: [Folder]
    /// Who the frame runs as ("photokiosk" under the unit).
    public var userName: String

    /// The folder a person is told to put photos in when a configured one cannot be used.
    public static let packagedPhotoFolder = "/var/lib/photokiosk/photos"
    /// The formats the library shows, as the no-photos screen names them.
    public static let formatNames = "JPEG, PNG, HEIC, AVIF or WebP"
    /// Where the sandbox of the unit (ProtectHome=yes) hides everything.
    static let homePrefixes = ["/home", "/root", "/run/user"]
    /// Where removable media and network shares are mounted.
    static let mountPrefixes = ["/media", "/mnt", "/run/media"]
    /// How many entries a look into one folder tree reads at most: enough to tell "empty" from
    /// "only other files" without walking a big tree on the loop thread.
    static let entryBudget = 2000

    public init(folders: [Folder], userName: String) {
        self.folders = folders
        self.userName = userName
    }

    /// Looks at each folder now (a few system calls and a bounded listing each).
    public static func examine(_ paths: [String], listing: any FolderListing = SystemFolderListing(),
                               userName: String = ProcessUser.name) -> EmptyLibraryDiagnosis {
        EmptyLibraryDiagnosis(folders: paths.map { Folder(path: $0, state: state(of: $0, listing: listing)) },
                              userName: userName)
    }

    static func state(of path: String, listing: any FolderListing) -> FolderState {
        let info: Stat
        do {
            info = try listing.status(of: Array(path.utf8), followingLinks: true)
        } catch {
            switch error.errno {
            case .permissionDenied, .notPermitted:
                return .unreadable(hiddenByProtectHome: isUnder(path, homePrefixes))
            default:
                if isUnder(path, homePrefixes), isHiddenHome(of: path, listing: listing) {
                    return .unreadable(hiddenByProtectHome: true)
                }
                return isUnder(path, mountPrefixes) ? .notMounted : .missing
            }
        }
        guard info.type == .directory else { return .notAFolder }
        var photos = 0, others = 0, examples: [String] = [], budget = entryBudget
        var pending = [path], isRootReadable = true
        while let folder = pending.popLast(), budget > 0 {
            do {
                let open = try listing.openFolder(Array(folder.utf8))
                try open.forEachEntry { name, kind in
                    guard budget > 0, let first = name.first, first != UInt8(ascii: ".") else { return }
                    budget -= 1
                    let bytes = Array(name)
                    switch kind {
                    case .folder:
                        pending.append(folder + "/" + String(decoding: bytes, as: UTF8.self))
                    case .regular, .symbolicLink, .unknown:
                        if PhotoFileType(fileName: bytes) != nil, !SyncToolFileName.isExcluded(bytes) {
                            photos += 1
                        } else {
                            others += 1
                            if examples.count < 3 { examples.append(String(decoding: bytes, as: UTF8.self)) }
                        }
                    case .other:
                        break
                    }
                }
            } catch {
                if folder == path { isRootReadable = false }
            }
        }
        if !isRootReadable { return .unreadable(hiddenByProtectHome: isUnder(path, homePrefixes)) }
        if photos > 0 { return .hasPhotos(count: photos) }
        if others > 0 { return .onlyOtherFiles(count: others, examples: examples) }
        if isUnder(path, mountPrefixes), !isMountPoint(path, info: info, listing: listing) { return .notMounted }
        return .empty
    }

    static func isUnder(_ path: String, _ prefixes: [String]) -> Bool {
        prefixes.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    /// ProtectHome=tmpfs or read-only: the home folders are replaced by an empty one.
    private static func isHiddenHome(of path: String, listing: any FolderListing) -> Bool {
        guard let prefix = homePrefixes.first(where: { path.hasPrefix($0 + "/") }),
              let open = try? listing.openFolder(Array(prefix.utf8)) else { return false }
        var isEmpty = true
        try? open.forEachEntry { _, _ in isEmpty = false }
        return isEmpty
    }

    /// A folder on another device than its parent is something mounted there.
    private static func isMountPoint(_ path: String, info: Stat, listing: any FolderListing) -> Bool {
        let parent = FilePath(path).removingLastComponent().string
        guard let parentInfo = try? listing.status(of: Array((parent.isEmpty ? "/" : parent).utf8), followingLinks: true) else { return false }
        return parentInfo.deviceID != info.deviceID
    }

    // MARK: In words

    /// The service's name for the person: "the photokiosk service" under the unit.
    private var reader: String {
        userName == "photokiosk" ? "the photokiosk service" : "PhotoKiosk (running as \(userName))"
    }

    /// One sentence per folder: what is wrong with it.
    public var problems: [String] {
        folders.map { folder in
            let path = folder.path
            switch folder.state {
            case .missing:
                return "\(path) does not exist."
            case .notMounted:
                return "Nothing is mounted at \(path): is the USB stick or share connected?"
            case .unreadable(hiddenByProtectHome: true):
                let home = Self.homePrefixes.first { path.hasPrefix($0 + "/") } ?? "/home"
                return "\(path) can't be read by \(reader) (the unit's ProtectHome hides \(home))."
            case .unreadable(hiddenByProtectHome: false):
                return "\(path) can't be read by \(reader): its permissions keep user \(userName) out."
            case .notAFolder:
                return "\(path) is a file, not a folder."
            case .empty:
                return "\(path) is empty."
            case .onlyOtherFiles(let count, let examples):
                let files = count == 1 ? "1 file" : "\(count) files"
                let shown = examples.joined(separator: ", ") + (count > examples.count ? ", …" : "")
                return "\(path) has \(files) (\(shown)) but no photo the frame can show."
            case .hasPhotos(let count):
                return count == 1 ? "\(path) has 1 photo, which is still being read or cannot be opened."
                                  : "\(path) has \(count) photos, which are still being read or cannot be opened."
            }
        }
    }

    /// What to do, in order of likelihood.
    public var advice: [String] {
        var advice: [String] = []
        let usable = folders.first { folder in
            switch folder.state {
            case .empty, .onlyOtherFiles: return true
            default: return false
            }
        }
        if let usable {
            advice.append("Copy photos (\(Self.formatNames)) into \(usable.path).")
        } else {
            let anyHome = folders.contains { $0.state == .unreadable(hiddenByProtectHome: true) }
            let place = anyHome ? "a folder outside \(Self.homePrefixes[0])" : "a folder the frame can read"
            advice.append("Put photos (\(Self.formatNames)) in \(Self.packagedPhotoFolder), or set [library] folders in /etc/photokiosk/config.toml to \(place).")
            if folders.contains(where: { if case .unreadable(false) = $0.state { return true } else { return false } }) {
                advice.append("Or let user \(userName) read the folder: chmod o+rx on it and every folder above it.")
            }
        }
        advice.append("This screen keeps watching: photos show as soon as they arrive.")
        return advice
    }
}
