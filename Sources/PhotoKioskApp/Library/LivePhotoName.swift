import Imaging

/// The two halves of an iPhone Live Photo, as a listing sees them: a still (HEIC or JPEG) and a
/// QuickTime clip (.mov) with the same name but for the extension, in the same folder
/// (IMG_1234.HEIC and IMG_1234.MOV; names compared without regard to ASCII case). The library
/// lists the pair as one photo, the still, with the clip as its `Photo.motion`.
///
/// Where the pairing happens: by names alone, in `PhotoList` as it applies each scan batch and
/// watcher change, so a scan still opens no file and every path that adds, removes or renames a
/// file (scans, the watcher, rescans' diffs, listing snapshots, which hold the files as found)
/// pairs the same way. The content identifiers Apple writes into both halves are compared
/// afterwards, off the loop (`LivePhotoConfirmation`, fed by `PhotoList.takeUnconfirmedPairs`):
/// halves whose identifiers both read and differ are split again (`PhotoList.refusePair`), and a
/// half rewritten is compared again.
enum LivePhotoName {
    enum Role { case still, motion }

    /// A hash of the folder and of the name without its extension, ASCII lower-cased: what the
    /// list files candidates under. A number, not the bytes, so that a library of 100,000 photos
    /// does not keep a second copy of every path; two names are compared (`sameName`) before
    /// they are paired, so a collision costs nothing but a shared bucket.
    typealias Key = Int

    static func role(of type: PhotoFileType) -> Role? {
        switch type {
        case .jpeg, .heif: .still
        case .mov: .motion
        case .png, .avif, .webp, .mp4, .m4v, .mkv, .webm: nil
        }
    }

    /// Where the name starts and where its extension's dot is, when it has an extension and
    /// something before it.
    private static func stem(of bytes: [UInt8]) -> (nameStart: Int, dot: Int)? {
        let nameStart = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > nameStart else { return nil }
        return (nameStart, dot)
    }

    private static func lowered(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }

    static func key(of path: RawPath) -> Key? {
        let bytes = path.bytes
        guard let (nameStart, dot) = stem(of: bytes) else { return nil }
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[..<nameStart])) }
        hasher.combine(UInt8(ascii: "/"))
        for byte in bytes[nameStart..<dot] { hasher.combine(lowered(byte)) }
        return hasher.finalize()
    }

    /// Whether `a` and `b` are in the same folder with the same name but for the extension and
    /// ASCII case.
    static func sameName(_ a: RawPath, _ b: RawPath) -> Bool {
        guard let (aStart, aDot) = stem(of: a.bytes), let (bStart, bDot) = stem(of: b.bytes),
              aStart == bStart, aDot == bDot, a.bytes[..<aStart] == b.bytes[..<bStart] else { return false }
        return zip(a.bytes[aStart..<aDot], b.bytes[bStart..<bDot]).allSatisfy { lowered($0) == lowered($1) }
    }
}

/// A Live Photo's still and the clip attached to it, by path.
public struct MotionPair: Hashable, Sendable, CustomStringConvertible {
    public var still: RawPath
    public var clip: RawPath

    public init(still: RawPath, clip: RawPath) {
        self.still = still
        self.clip = clip
    }

    public var description: String { "\(still) + \(clip)" }
}

/// The files listed under one `LivePhotoName.Key`, and the pairs among them found not to be one.
/// Nearly every key holds one still and nothing else, so that one is kept inline: no array.
struct LivePhotoCandidates {
    private var firstStill: RawPath?
    private var moreStills: [RawPath] = []
    private(set) var clips: [RawPath] = []
    /// Pairs whose content identifiers differ (`PhotoList.refusePair`); forgotten when either
    /// file is rewritten, renamed or removed.
    var refused: Set<MotionPair> = []

    var isEmpty: Bool { firstStill == nil && clips.isEmpty }
    var anyPath: RawPath? { firstStill ?? clips.first }
    var stills: [RawPath] { (firstStill.map { [$0] } ?? []) + moreStills }

    mutating func insert(_ path: RawPath, as role: LivePhotoName.Role) {
        switch role {
        case .still:
            if firstStill == nil { firstStill = path } else if firstStill != path, !moreStills.contains(path) { moreStills.append(path) }
        case .motion:
            if !clips.contains(path) { clips.append(path) }
        }
    }

    /// Takes `path` out, with the refusals it was part of; false when it was not here.
    mutating func remove(_ path: RawPath) -> Bool {
        var found = false
        if firstStill == path {
            firstStill = moreStills.popLast()
            found = true
        } else if let index = moreStills.firstIndex(of: path) {
            moreStills.remove(at: index)
            found = true
        } else if let index = clips.firstIndex(of: path) {
            clips.remove(at: index)
            found = true
        }
        if found { forgetRefusals(of: path) }
        return found
    }

    mutating func forgetRefusals(of path: RawPath) {
        guard !refused.isEmpty else { return }
        refused = refused.filter { $0.still != path && $0.clip != path }
    }

    /// Which still each clip belongs to: stills in name order each take the first clip of the
    /// same name (`LivePhotoName.sameName`), in name order, not refused with it (almost always one
    /// still and one clip: HEIC or JPEG with MOV).
    func pairs() -> [RawPath: RawPath] {
        guard !clips.isEmpty, firstStill != nil else { return [:] }
        var free = clips.sorted(by: NaturalOrder.precedes)
        var result: [RawPath: RawPath] = [:]
        for still in stills.sorted(by: NaturalOrder.precedes) {
            if let index = free.firstIndex(where: {
                LivePhotoName.sameName(still, $0) && !refused.contains(MotionPair(still: still, clip: $0))
            }) {
                result[free.remove(at: index)] = still
            }
        }
        return result
    }

    /// The same files under a folder that was renamed.
    func relocated(_ move: (RawPath) -> RawPath) -> LivePhotoCandidates {
        var moved = LivePhotoCandidates()
        for still in stills { moved.insert(move(still), as: .still) }
        for clip in clips { moved.insert(move(clip), as: .motion) }
        moved.refused = Set(refused.map { MotionPair(still: move($0.still), clip: move($0.clip)) })
        return moved
    }
}
