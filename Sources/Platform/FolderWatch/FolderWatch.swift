import SystemAccess

/// One change the kernel reported in a watched folder (inotify's event, decoded).
public struct FolderEvent: Equatable, Sendable {
    /// Which watch it came from (as `addWatch` returned it).
    public var watch: Int32
    public var kinds: FolderEventKinds
    /// Pairs the two halves of a rename (IN_MOVED_FROM, IN_MOVED_TO).
    public var cookie: UInt32
    /// The entry's name inside the watched folder; empty for events about the folder itself.
    public var name: [UInt8]

    public init(watch: Int32, kinds: FolderEventKinds, cookie: UInt32 = 0, name: [UInt8] = []) {
        self.watch = watch
        self.kinds = kinds
        self.cookie = cookie
        self.name = name
    }
}

/// What happened, as inotify's mask bits.
public struct FolderEventKinds: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let created = FolderEventKinds(rawValue: 0x0000_0100)          // IN_CREATE
    public static let deleted = FolderEventKinds(rawValue: 0x0000_0200)          // IN_DELETE
    public static let movedFrom = FolderEventKinds(rawValue: 0x0000_0040)        // IN_MOVED_FROM
    public static let movedTo = FolderEventKinds(rawValue: 0x0000_0080)          // IN_MOVED_TO
    public static let closedAfterWrite = FolderEventKinds(rawValue: 0x0000_0008) // IN_CLOSE_WRITE
    public static let folderDeleted = FolderEventKinds(rawValue: 0x0000_0400)    // IN_DELETE_SELF
    public static let folderMoved = FolderEventKinds(rawValue: 0x0000_0800)      // IN_MOVE_SELF
    /// The entry is a folder.
    public static let isFolder = FolderEventKinds(rawValue: 0x4000_0000)         // IN_ISDIR
    /// Events were lost: the queue overflowed, a rescan is needed.
    public static let overflow = FolderEventKinds(rawValue: 0x0000_4000)         // IN_Q_OVERFLOW
    /// The watch is gone (its folder was deleted, or it was removed).
    public static let watchRemoved = FolderEventKinds(rawValue: 0x0000_8000)     // IN_IGNORED
}

/// Kernel notifications of changes in folders, one watch per folder (not recursive). Attached to
/// the event loop, it calls its handler when events are pending; the handler calls
/// `readEvents()`. `Inotify` is the kernel's; tests can script their own.
public protocol FolderWatch: AnyObject {
    /// Calls `onPending` on the loop thread whenever events are pending.
    func attach(to loop: any EventLoopRegistry, onPending: @escaping () -> Void) throws(PlatformError)
    /// Stops calling it. Safe to call when not attached.
    func detach(from loop: any EventLoopRegistry)
    /// Starts watching the folder at `path` (bytes) for creations, deletions, renames, finished
    /// writes and the folder's own removal; returns the watch's number (the same folder watched
    /// twice gives the same number).
    func addWatch(folder path: [UInt8]) throws(SystemError) -> Int32
    func removeWatch(_ watch: Int32)
    /// Every pending event, in order (empty when none).
    func readEvents() -> [FolderEvent]
}
