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

    /// The folder (with its final slash) and the name without its extension, ASCII lower-cased.
    struct Key: Hashable {
        var folder: [UInt8]
        var stem: [UInt8]
    }

    static func role(of type: PhotoFileType) -> Role? {
        switch type {
        case .jpeg, .heif: .still
        case .mov: .motion
        case .png, .avif, .webp, .mp4, .m4v, .mkv, .webm: nil
        }
    }

    /// The key of `path`, when its name has an extension and something before it.
    static func key(of path: RawPath) -> Key? {
        let bytes = path.bytes
        let nameStart = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > nameStart else { return nil }
        let stem = bytes[nameStart..<dot].map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        return Key(folder: Array(bytes[..<nameStart]), stem: stem)
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
struct LivePhotoCandidates {
    var stills: [RawPath] = []
    var clips: [RawPath] = []
    /// Pairs whose content identifiers differ (`PhotoList.refusePair`); forgotten when either
    /// file is rewritten, renamed or removed.
    var refused: Set<MotionPair> = []

    var isEmpty: Bool { stills.isEmpty && clips.isEmpty }
    var anyPath: RawPath? { stills.first ?? clips.first }

    mutating func insert(_ path: RawPath, as role: LivePhotoName.Role) {
        switch role {
        case .still: if !stills.contains(path) { stills.append(path) }
        case .motion: if !clips.contains(path) { clips.append(path) }
        }
    }

    /// Takes `path` out, with the refusals it was part of; false when it was not here.
    mutating func remove(_ path: RawPath) -> Bool {
        let before = stills.count + clips.count
        stills.removeAll { $0 == path }
        clips.removeAll { $0 == path }
        forgetRefusals(of: path)
        return stills.count + clips.count != before
    }

    mutating func forgetRefusals(of path: RawPath) {
        refused = refused.filter { $0.still != path && $0.clip != path }
    }

    /// Which still each clip belongs to: stills in name order each take the first clip in name
    /// order not refused with it (almost always one still and one clip: HEIC or JPEG with MOV).
    func pairs() -> [RawPath: RawPath] {
        var free = clips.sorted(by: NaturalOrder.precedes)
        var result: [RawPath: RawPath] = [:]
        for still in stills.sorted(by: NaturalOrder.precedes) {
            if let index = free.firstIndex(where: { !refused.contains(MotionPair(still: still, clip: $0)) }) {
                result[free.remove(at: index)] = still
            }
        }
        return result
    }

    /// The same files under a folder that was renamed.
    func relocated(_ move: (RawPath) -> RawPath) -> LivePhotoCandidates {
        LivePhotoCandidates(stills: stills.map(move), clips: clips.map(move),
                            refused: Set(refused.map { MotionPair(still: move($0.still), clip: move($0.clip)) }))
    }
}
