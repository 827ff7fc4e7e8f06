import SystemAccess
import SystemPackage

/// The kind of a folder entry, from readdir's `d_type` when the file system gives it (no stat).
public enum FolderEntryKind: Sendable {
    case folder, regular, symbolicLink, other
    /// The file system did not say (some network and FUSE ones): stat the entry to know.
    case unknown
}

/// Listing folders and looking at files: readdir and fstatat for the library's walk. The
/// kernel's is `SystemFolderListing`; paths and names are bytes, statuses swift-system's `Stat`.
public protocol FolderListing: Sendable {
    /// Opens the folder at `path` (following a final link).
    func openFolder(_ path: [UInt8]) throws(SystemError) -> any OpenFolder
    /// stat (`followingLinks`) or lstat of `path`.
    func status(of path: [UInt8], followingLinks: Bool) throws(SystemError) -> Stat
}

/// One open folder: its status as it was opened, its entries, their statuses relative to it
/// (cheaper than full paths, and immune to the path changing mid-walk).
public protocol OpenFolder: AnyObject {
    var status: Stat { get }
    /// Calls `body` with each entry's name (valid during the call only) and kind, in readdir
    /// order, without "." and "..".
    func forEachEntry(_ body: (UnsafeRawBufferPointer, FolderEntryKind) -> Void) throws(SystemError)
    /// lstat of the entry `name` (the link itself, not its target).
    func status(ofEntry name: some Collection<UInt8>) throws(SystemError) -> Stat
}
