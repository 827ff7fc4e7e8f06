/// Names that sync and copy tools give files that are not a finished photo of the library: a
/// transfer still under way, or a conflict copy. The library never lists them, whatever their
/// extension, so a half-written file never shows, not even as a broken tile.
///
/// - rclone (1.63 and later) downloads into `<name>.<hash>.partial` and renames it when complete
///   (`--partial-suffix`, default `.partial`; `--inplace` writes the final name directly, as 1.60
///   in Debian 12 and 13 always does: that case is the watcher's, which shows a file once it is
///   closed after writing).
/// - Syncthing writes into `.syncthing.<name>.tmp` (`~syncthing~<name>.tmp` where a leading dot is
///   awkward; `.syncthing.<hash>.tmp` for a name too long), keeps its marker `.stfolder`, its
///   ignore patterns in `.stignore` and old versions in `.stversions`, and names the
///   losing side of a conflict `<name>.sync-conflict-<date>-<time>-<device>.<ext>`: a second
///   copy of a photo already shown.
///
/// Hidden names (a leading dot) are skipped by the walk anyway; they are named here too so the
/// rule stands on its own.
enum SyncToolFileName {
    /// Whether `name` (one path component) is one of those.
    static func isExcluded(_ name: some Collection<UInt8>) -> Bool {
        let bytes = Array(name)
        if bytes.starts(with: syncthingTemporary) || bytes.starts(with: syncthingWindowsTemporary) { return true }
        if bytes == syncthingMarker || bytes == syncthingVersions || bytes == syncthingIgnores { return true }
        if endsWith(bytes, rclonePartial) { return true }
        return contains(bytes, syncthingConflict)
    }

    private static let syncthingTemporary = Array(".syncthing.".utf8)
    private static let syncthingWindowsTemporary = Array("~syncthing~".utf8)
    private static let syncthingMarker = Array(".stfolder".utf8)
    private static let syncthingVersions = Array(".stversions".utf8)
    private static let syncthingIgnores = Array(".stignore".utf8)
    private static let syncthingConflict = Array(".sync-conflict-".utf8)
    private static let rclonePartial = Array(".partial".utf8)

    private static func endsWith(_ bytes: [UInt8], _ suffix: [UInt8]) -> Bool {
        bytes.count >= suffix.count && bytes.suffix(suffix.count).elementsEqual(suffix) { $0 | 0x20 == $1 }
    }

    private static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        guard bytes.count >= part.count else { return false }
        for start in 0...(bytes.count - part.count) where bytes[start..<(start + part.count)].elementsEqual(part) {
            return true
        }
        return false
    }
}
