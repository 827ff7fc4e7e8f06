import Imaging

/// What the folders hold at the end of a scan: the files the scan found, with the changes a
/// watcher heard while it ran played over them in order.
///
/// The scan reads each folder once, at some moment; what changes in a folder after that moment
/// only a watcher that was already watching it can tell (`BackgroundScan` watches each folder
/// just before reading it). A photo added after its folder was read is in `heard`, not in
/// `found`; a photo the scan saw and that was deleted since ends deleted; a rename keeps the
/// new name. A change the scan already saw (heard before the folder was read) plays over it
/// harmlessly: an addition updates, a removal of what is not there does nothing.
enum ScanReconciliation {
    static func files(found: [ScannedFile], heard: [LibraryChange]) -> [ScannedFile] {
        var order: [RawPath] = []
        var byPath: [RawPath: ScannedFile] = [:]
        func put(_ file: ScannedFile) {
            if byPath.updateValue(file, forKey: file.path) == nil { order.append(file.path) }
        }
        for file in found { put(file) }
        for change in heard {
            switch change {
            case .added(let file):
                put(file)
            case .moved(let from, let file):
                byPath[from] = nil
                put(file)
            case .removed(let path):
                byPath[path] = nil
            case .removedDirectory(let directory):
                for path in byPath.keys where path.isInside(directory) { byPath[path] = nil }
            case .movedDirectory(let from, let to):
                for (path, file) in byPath where path.isInside(from) {
                    byPath[path] = nil
                    var moved = file
                    moved.path = RawPath(bytes: to.bytes + path.bytes.dropFirst(from.bytes.count))
                    put(moved)
                }
            case .rescanNeeded:
                continue   // the caller scans again
            }
        }
        // A path removed and added again was listed twice.
        var listed = Set<RawPath>()
        return order.compactMap { path in listed.insert(path).inserted ? byPath[path] : nil }
    }
}
