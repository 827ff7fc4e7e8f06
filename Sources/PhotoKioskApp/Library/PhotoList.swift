import Imaging

/// A photo's identity in the list: stays the same while its file stays at its path (or is
/// renamed within the library), so the grid can keep a cell, a selection or a loaded thumbnail.
public struct PhotoID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt64
    public static func < (a: PhotoID, b: PhotoID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
}

public struct Photo: Hashable, Sendable {
    public let id: PhotoID
    public var file: ScannedFile
    /// The clip of the Live Photo whose still this is (the .mov of the same name in the same
    /// folder, `LivePhotoName`): it is not listed on its own while attached here.
    public var motion: RawPath?
    public var path: RawPath { file.path }

    public init(id: PhotoID, file: ScannedFile, motion: RawPath? = nil) {
        self.id = id
        self.file = file
        self.motion = motion
    }
}

public enum LibrarySortOrder: Sendable, Hashable {
    /// Natural, case-insensitive order of the path (folders group their photos).
    case name
    /// When the photo was taken (EXIF, else file mtime), oldest first; ties by name.
    case dateTaken
}

/// What one update did to the list, for the grid to refresh just those cells.
public struct PhotoListChange: Sendable, Equatable {
    public var inserted: [PhotoID] = []
    public var removed: [PhotoID] = []
    /// Same identity, new file contents or new path (thumbnails should be reloaded), or a Live
    /// Photo's clip attached to or taken from it (`Photo.motion`).
    public var updated: [PhotoID] = []
    /// The watcher lost events; the app should rescan and apply `PhotoList.diff`.
    public var needsRescan = false

    public var isEmpty: Bool { inserted.isEmpty && removed.isEmpty && updated.isEmpty && !needsRescan }
}

/// The library's photos in display order, with stable identities. Owned by the event loop
/// thread: scan batches and watcher changes are applied here as they arrive.
public final class PhotoList {
    public private(set) var order: LibrarySortOrder
    public private(set) var photos: [Photo] = []
    private var idByPath: [RawPath: PhotoID] = [:]
    private var indexByID: [PhotoID: Int]?
    private var nextID: UInt64 = 1
    /// A person's own order (drag to reorder): photos with a rank come first by rank; the rest
    /// (added since) follow in `order`. Nil: the list is in `order`.
    private var customRanks: [RawPath: Int]?
    /// Live Photos (`LivePhotoName`): the stills and clips under each name, listed or attached.
    private var candidates: [LivePhotoName.Key: LivePhotoCandidates] = [:]
    /// Clips attached to a still as its motion: not in `photos`, their file kept here.
    private var attached: [RawPath: AttachedClip] = [:]
    /// Pairs formed or rewritten since `takeUnconfirmedPairs`, by clip: the still's path.
    private var unconfirmed: [RawPath: RawPath] = [:]

    private struct AttachedClip {
        var file: ScannedFile
        var still: PhotoID
    }

    public init(order: LibrarySortOrder = .name) {
        self.order = order
    }

    public var count: Int { photos.count }
    public subscript(index: Int) -> Photo { photos[index] }

    public func index(of id: PhotoID) -> Int? {
        if indexByID == nil {
            indexByID = Dictionary(uniqueKeysWithValues: photos.enumerated().map { ($1.id, $0) })
        }
        return indexByID![id]
    }

    /// Where the photo at `path` is in the list, if it is there.
    public func index(at path: RawPath) -> Int? {
        idByPath[path].flatMap { index(of: $0) }
    }

    public func photo(at path: RawPath) -> Photo? {
        index(at: path).map { photos[$0] }
    }

    public func setOrder(_ newOrder: LibrarySortOrder) {
        guard newOrder != order else { return }
        order = newOrder
        photos.sort(by: comparator())
        indexByID = nil
    }

    /// Whether a custom order is in effect.
    public var hasCustomOrder: Bool { customRanks != nil }

    /// Arranges the list by `paths` (a saved custom order): those photos first in that order,
    /// the others after them in `order`. Nil goes back to `order` alone. Photos that arrive
    /// later take their saved place too.
    public func setCustomOrder(_ paths: [RawPath]?) {
        customRanks = paths.map { paths in
            var ranks: [RawPath: Int] = [:]
            for (rank, path) in paths.enumerated() where ranks[path] == nil { ranks[path] = rank }
            return ranks
        }
        photos.sort(by: comparator())
        indexByID = nil
    }

    /// Moves the photo at `from` to `to` (drag to reorder); the list keeps this order from now on.
    public func move(from: Int, to: Int) {
        guard from != to, photos.indices.contains(from), photos.indices.contains(to) else { return }
        photos.insert(photos.remove(at: from), at: to)
        var ranks: [RawPath: Int] = [:]
        for (rank, photo) in photos.enumerated() { ranks[photo.path] = rank }
        customRanks = ranks
        indexByID = nil
    }

    /// Every file the list holds: the photos' and their attached motion clips' (what a rescan
    /// should find again).
    public var allFiles: [ScannedFile] {
        photos.map(\.file) + attached.values.map(\.file).sorted { NaturalOrder.precedes($0.path, $1.path) }
    }

    /// The Live Photo pairs formed (or whose halves were rewritten) since the last call, for
    /// their content identifiers to be compared (`LivePhotoConfirmation`); each is handed out once.
    public func takeUnconfirmedPairs() -> [MotionPair] {
        defer { unconfirmed = [:] }
        return unconfirmed.map { MotionPair(still: $0.value, clip: $0.key) }
            .sorted { NaturalOrder.precedes($0.clip, $1.clip) }
    }

    /// The two halves are not one Live Photo (their content identifiers differ): the clip is
    /// listed on its own again and the still loses its motion, until either file changes. Nothing
    /// happens when they are no longer paired (renamed or removed meanwhile).
    @discardableResult
    public func refusePair(_ pair: MotionPair) -> PhotoListChange {
        guard let clip = attached[pair.clip], let index = index(of: clip.still), photos[index].path == pair.still,
              let key = LivePhotoName.key(of: pair.clip) else { return PhotoListChange() }
        candidates[key]?.refused.insert(pair)
        var batch = Batch()
        repair(key, in: &batch)
        flush(&batch)
        return batch.result.withoutTransientIDs()
    }

    /// Adds a scan batch (files already present are updated in place).
    @discardableResult
    public func add(_ files: [ScannedFile]) -> PhotoListChange {
        apply(files.map { .added($0) })
    }

    /// Applies watcher changes in order, in three steps: each change is recorded in turn
    /// (insertions and removals are collected, and written into the list in one pass whenever a
    /// change needs the list current), what is still collected is written, and the report drops
    /// the ids the grid never saw.
    @discardableResult
    public func apply(_ changes: [LibraryChange]) -> PhotoListChange {
        var batch = Batch()
        for change in changes { record(change, in: &batch) }
        flush(&batch)
        return batch.result.withoutTransientIDs()
    }

    /// The changes that turn this list into `files` (a full rescan): for the polling watcher and
    /// after an inotify overflow.
    public func diff(against files: [ScannedFile]) -> [LibraryChange] {
        var current: [RawPath: ScannedFile] = [:]
        for photo in photos { current[photo.path] = photo.file }
        for (path, clip) in attached { current[path] = clip.file }
        var changes: [LibraryChange] = []
        var present = Set<RawPath>()
        for file in files {
            present.insert(file.path)
            if let old = current[file.path], sameVersion(old, file) { continue }
            changes.append(.added(file))
        }
        for photo in photos where !present.contains(photo.path) {
            changes.append(.removed(photo.path))
        }
        for path in attached.keys.sorted(by: NaturalOrder.precedes) where !present.contains(path) {
            changes.append(.removed(path))
        }
        return changes
    }

    // MARK: private

    /// What one `apply` has collected and not yet written into the list: insertions are merged
    /// in once, not one by one, and removals wait for one pass too.
    private struct Batch {
        var pending: [Photo] = []
        var removing: Set<PhotoID> = []
        var result = PhotoListChange()

        /// A photo goes: from the pending inserts if it is still among them, else from the list
        /// at the next flush.
        mutating func drop(_ id: PhotoID) {
            if let index = pending.firstIndex(where: { $0.id == id }) {
                pending.remove(at: index)
            } else {
                removing.insert(id)
            }
            result.removed.append(id)
        }
    }

    private func record(_ change: LibraryChange, in batch: inout Batch) {
        switch change {
        case .added(let file):
            if attached[file.path] != nil {
                updateAttached(file, in: &batch)
            } else if let id = idByPath[file.path] {
                flush(&batch)
                update(id, with: file)
                batch.result.updated.append(id)
                // Only where a clip of its name is listed: looking a photo up by id after the
                // update rebuilds the id index, which a rescan touching every photo cannot afford.
                if let key = LivePhotoName.key(of: file.path), let names = candidates[key], !names.clips.isEmpty {
                    // New contents: compare the identifiers again.
                    candidates[key]?.forgetRefusals(of: file.path)
                    repair(key, in: &batch)
                    if let motion = photo(withID: id, in: batch)?.motion { unconfirmed[motion] = file.path }
                }
            } else if let key = enlist(file) {
                if LivePhotoName.role(of: file.type) == .motion {
                    repair(key, newClip: file, in: &batch)
                } else {
                    insertNew(file, in: &batch)
                    repair(key, in: &batch)
                }
            } else {
                insertNew(file, in: &batch)
            }
        case .moved(let from, let file):
            if attached[from] != nil {
                // An attached clip renamed: it leaves its still, and pairs again if its new name says so.
                record(.removed(from), in: &batch)
                record(.added(file), in: &batch)
            } else {
                if attached[file.path] != nil { record(.removed(file.path), in: &batch) }
                let wasListed = idByPath[from] != nil
                recordMove(from: from, to: file, in: &batch)
                if wasListed {
                    let oldKey = delist(from)
                    let newKey = enlist(file)
                    if let oldKey { repair(oldKey, in: &batch) }
                    if let newKey { repair(newKey, in: &batch) }
                }
            }
        case .removed(let path):
            if let clip = attached.removeValue(forKey: path) {
                unconfirmed[path] = nil
                setMotion(nil, of: clip.still, in: &batch)
                if let key = delist(path) { repair(key, in: &batch) }
            } else if let id = idByPath.removeValue(forKey: path) {
                batch.drop(id)
                if let key = delist(path) { repair(key, in: &batch) }
            }
        case .removedDirectory(let directory):
            let gone = idByPath.filter { $0.key.isInside(directory) }
            for (path, id) in gone.sorted(by: { $0.value < $1.value }) {
                idByPath[path] = nil
                batch.drop(id)
            }
            // Both halves of a pair are in one folder: they go together.
            for path in attached.keys where path.isInside(directory) {
                attached[path] = nil
                unconfirmed[path] = nil
            }
            candidates = candidates.filter { !($0.value.anyPath?.isInside(directory) ?? true) }
        case .movedDirectory(let from, let to):
            recordDirectoryMove(from: from, to: to, in: &batch)
        case .rescanNeeded:
            batch.result.needsRescan = true
        }
    }

    private func recordMove(from: RawPath, to file: ScannedFile, in batch: inout Batch) {
        flush(&batch)
        guard let id = idByPath.removeValue(forKey: from) else {
            // Renamed before the scan read its folder, the photo is listed under its new name
            // already: an update, not a second photo at that path.
            return record(.added(file), in: &batch)
        }
        // A renamed photo keeps its place in a custom order.
        if let rank = customRanks?.removeValue(forKey: from) { customRanks?[file.path] = rank }
        if let existing = idByPath[file.path] {   // moved over another photo
            batch.drop(existing)
            flush(&batch)
        }
        idByPath[file.path] = id
        update(id, with: file)
        batch.result.updated.append(id)
    }

    private func recordDirectoryMove(from: RawPath, to: RawPath, in batch: inout Batch) {
        flush(&batch)
        let moving = idByPath.filter { $0.key.isInside(from) }
        guard !moving.isEmpty else { return }
        var newPaths: [PhotoID: RawPath] = [:]
        for (path, id) in moving {
            let moved = RawPath(bytes: to.bytes + path.bytes.dropFirst(from.bytes.count))
            idByPath[path] = nil
            newPaths[id] = moved
        }
        for (id, path) in newPaths {
            if let existing = idByPath[path] { batch.drop(existing) }
            idByPath[path] = id
            batch.result.updated.append(id)
        }
        flush(&batch)
        func relocated(_ path: RawPath) -> RawPath {
            path.isInside(from) ? RawPath(bytes: to.bytes + path.bytes.dropFirst(from.bytes.count)) : path
        }
        for index in photos.indices {
            if let path = newPaths[photos[index].id] { photos[index].file.path = path }
            if let motion = photos[index].motion { photos[index].motion = relocated(motion) }
        }
        // Both halves of a pair are in one folder: they move together and stay a pair.
        for (path, var clip) in attached where path.isInside(from) {
            attached[path] = nil
            clip.file.path = relocated(path)
            attached[clip.file.path] = clip
        }
        unconfirmed = Dictionary(unconfirmed.map { (relocated($0.key), relocated($0.value)) }, uniquingKeysWith: { a, _ in a })
        for (key, names) in candidates where names.anyPath?.isInside(from) ?? false {
            candidates[key] = nil
            let moved = names.relocated(relocated)
            if let path = moved.anyPath, let newKey = LivePhotoName.key(of: path) { candidates[newKey] = moved }
        }
        photos.sort(by: comparator())
        indexByID = nil
    }

    // MARK: Live Photos

    /// Notes `file` among the candidates of its name; its key when it may be half of a Live Photo.
    private func enlist(_ file: ScannedFile) -> LivePhotoName.Key? {
        guard let role = LivePhotoName.role(of: file.type), let key = LivePhotoName.key(of: file.path) else { return nil }
        candidates[key, default: LivePhotoCandidates()].insert(file.path, as: role)
        return key
    }

    /// Takes `path` out of the candidates; its key when it was among them.
    private func delist(_ path: RawPath) -> LivePhotoName.Key? {
        guard let key = LivePhotoName.key(of: path), var names = candidates[key], names.remove(path) else { return nil }
        candidates[key] = names.isEmpty ? nil : names
        return key
    }

    /// Makes the list agree with the pairs the candidates of `key` call for: each clip attached to
    /// its still (out of the list) or listed on its own. `newClip`: a clip just enlisted, neither
    /// listed nor attached yet.
    private func repair(_ key: LivePhotoName.Key, newClip: ScannedFile? = nil, in batch: inout Batch) {
        // Most keys hold a still alone: nothing to pair, nothing attached.
        guard let names = candidates[key], !names.clips.isEmpty else { return }
        let wanted = names.pairs()
        for clip in names.clips {
            let stillID = wanted[clip].flatMap { idByPath[$0] }
            if let current = attached[clip] {
                if current.still == stillID { continue }
                attached[clip] = nil
                unconfirmed[clip] = nil
                setMotion(nil, of: current.still, in: &batch)
                if let stillID, let still = wanted[clip] {
                    attach(current.file, to: stillID, at: still, in: &batch)
                } else {
                    insertNew(current.file, in: &batch)
                }
            } else if let newClip, newClip.path == clip {
                if let stillID, let still = wanted[clip] {
                    attach(newClip, to: stillID, at: still, in: &batch)
                } else {
                    insertNew(newClip, in: &batch)
                }
            } else if let stillID, let still = wanted[clip], let id = idByPath[clip],
                      let file = photo(withID: id, in: batch)?.file {
                idByPath[clip] = nil
                batch.drop(id)
                attach(file, to: stillID, at: still, in: &batch)
            }
        }
    }

    private func attach(_ clip: ScannedFile, to still: PhotoID, at stillPath: RawPath, in batch: inout Batch) {
        attached[clip.path] = AttachedClip(file: clip, still: still)
        unconfirmed[clip.path] = stillPath
        setMotion(clip.path, of: still, in: &batch)
    }

    /// A new version of an attached clip: kept attached, its identifier compared again.
    private func updateAttached(_ file: ScannedFile, in batch: inout Batch) {
        guard var clip = attached[file.path] else { return }
        clip.file = file
        attached[file.path] = clip
        if let still = photo(withID: clip.still, in: batch) {
            unconfirmed[file.path] = still.path
            batch.result.updated.append(clip.still)
        }
    }

    /// Sets a photo's motion, whether it is listed or still among the batch's insertions.
    private func setMotion(_ motion: RawPath?, of id: PhotoID, in batch: inout Batch) {
        if let index = batch.pending.lastIndex(where: { $0.id == id }) {
            batch.pending[index].motion = motion
        } else if let index = index(of: id) {
            photos[index].motion = motion
        } else {
            return
        }
        batch.result.updated.append(id)
    }

    private func photo(withID id: PhotoID, in batch: Batch) -> Photo? {
        if let pending = batch.pending.last(where: { $0.id == id }) { return pending }
        return index(of: id).map { photos[$0] }
    }

    /// Writes the collected removals and insertions into the list.
    private func flush(_ batch: inout Batch) {
        if !batch.removing.isEmpty {
            let removing = batch.removing
            photos.removeAll { removing.contains($0.id) }
            batch.removing = []
        }
        if !batch.pending.isEmpty {
            merge(batch.pending)
            batch.pending = []
        }
        indexByID = nil
    }

    private func insertNew(_ file: ScannedFile, in batch: inout Batch) {
        let id = makeID()
        idByPath[file.path] = id
        batch.pending.append(Photo(id: id, file: file))
        batch.result.inserted.append(id)
    }

    private func makeID() -> PhotoID {
        defer { nextID += 1 }
        return PhotoID(rawValue: nextID)
    }

    /// Replaces a photo's file and moves it if its sort position changed.
    private func update(_ id: PhotoID, with file: ScannedFile) {
        guard let index = photos.firstIndex(where: { $0.id == id }) else { return }
        var photo = photos.remove(at: index)
        photo.file = file
        photos.insert(photo, at: insertionIndex(for: photo))
        indexByID = nil
    }

    /// Merges new photos into the sorted list. A scan in name order delivers batches that all
    /// go after the list: those are appended (no comparison beyond the first, and the id index
    /// extended rather than rebuilt). Otherwise each new photo's place is found by binary
    /// search (k·log n comparisons, not n) and the runs between are copied, so a batch costs
    /// O(n) copies but not O(n) comparisons: a 100,000-photo scan stays about linear.
    private func merge(_ incoming: [Photo]) {
        let precedes = comparator()
        let sorted = incoming.sorted(by: precedes)   // O(k) when already in order
        guard let first = sorted.first else { return }
        if photos.isEmpty || precedes(photos[photos.count - 1], first) {
            let start = photos.count
            photos += sorted
            if indexByID != nil {
                for (offset, photo) in sorted.enumerated() { indexByID![photo.id] = start + offset }
            }
            return
        }
        var merged: [Photo] = []
        merged.reserveCapacity(photos.count + sorted.count)
        var copied = 0   // photos[..<copied] are in `merged` already
        for photo in sorted {
            var low = copied, high = photos.count
            while low < high {
                let mid = (low + high) / 2
                if precedes(photos[mid], photo) { low = mid + 1 } else { high = mid }
            }
            merged += photos[copied..<low]
            copied = low
            merged.append(photo)
        }
        merged += photos[copied...]
        photos = merged
        indexByID = nil
    }

    private func insertionIndex(for photo: Photo) -> Int {
        let precedes = comparator()
        var low = 0, high = photos.count
        while low < high {
            let mid = (low + high) / 2
            if precedes(photos[mid], photo) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The list's order as a closure over copies of `order` and the custom ranks, so sorting and
    /// merging compare without going through the class's properties on every call.
    private func comparator() -> (Photo, Photo) -> Bool {
        let ranks = customRanks, byDate = order == .dateTaken
        return { a, b in
            if let ranks {
                let ra = ranks[a.path] ?? Int.max, rb = ranks[b.path] ?? Int.max
                if ra != rb { return ra < rb }
            }
            if byDate, a.file.sortDate != b.file.sortDate {
                return a.file.sortDate < b.file.sortDate
            }
            let byName = NaturalOrder.compare(a.path.bytes, b.path.bytes)
            return byName != 0 ? byName < 0 : a.id < b.id
        }
    }

    private func sameVersion(_ a: ScannedFile, _ b: ScannedFile) -> Bool {
        a.size == b.size && a.modificationSeconds == b.modificationSeconds
            && a.modificationNanoseconds == b.modificationNanoseconds && a.identity == b.identity
    }
}

private extension PhotoListChange {
    /// An id inserted and removed within one update was never seen by the grid; an updated id is
    /// reported once, and not when it was inserted or removed as well.
    func withoutTransientIDs() -> PhotoListChange {
        var result = self
        let removedSet = Set(result.removed)
        let transient = Set(result.inserted).intersection(removedSet)
        if !transient.isEmpty {
            result.inserted.removeAll { transient.contains($0) }
            result.removed.removeAll { transient.contains($0) }
            result.updated.removeAll { transient.contains($0) }
        }
        let insertedSet = Set(result.inserted)
        var seen = Set<PhotoID>()
        result.updated.removeAll { removedSet.contains($0) || insertedSet.contains($0) || !seen.insert($0).inserted }
        return result
    }
}
