/// The photo and video clip formats the library lists, recognised by extension (case-insensitive)
/// so a scan never has to open a file to decide. The raw values are stored in listing snapshots:
/// keep them, and give a new type the next number.
public enum PhotoFileType: UInt8, Sendable, Hashable {
    case jpeg = 1
    case png = 2
    /// .heic, .heif, .hif (HEVC in HEIF; phones and cameras).
    case heif = 3
    case avif = 4
    case webp = 5
    /// Video clips, shown as their first frame for now (ClipDecoder).
    case mp4 = 6
    /// .mov (QuickTime: iPhones' clips and Live Photos' motion).
    case mov = 7
    case m4v = 8
    case mkv = 9
    case webm = 10

    /// A video clip rather than a still.
    public var isClip: Bool {
        switch self {
        case .mp4, .mov, .m4v, .mkv, .webm: true
        case .jpeg, .png, .heif, .avif, .webp: false
        }
    }

    /// The type for a file name ending in .jpg, .jpeg, .png, .heic, .heif, .hif, .avif, .webp,
    /// .mp4, .mov, .m4v, .mkv or .webm in any case; nil otherwise. (Decoding goes by content: a
    /// HEIC named .jpg still shows.)
    public init?(fileName: [UInt8]) {
        guard let dot = fileName.lastIndex(of: UInt8(ascii: ".")), dot > fileName.startIndex else {
            return nil
        }
        let ext = fileName[(dot + 1)...].map { $0 | 0x20 }   // ASCII lower-case; other bytes never match
        switch ext {
        case Array("jpg".utf8), Array("jpeg".utf8): self = .jpeg
        case Array("png".utf8): self = .png
        case Array("heic".utf8), Array("heif".utf8), Array("hif".utf8): self = .heif
        case Array("avif".utf8): self = .avif
        case Array("webp".utf8): self = .webp
        case Array("mp4".utf8): self = .mp4
        case Array("mov".utf8): self = .mov
        case Array("m4v".utf8): self = .m4v
        case Array("mkv".utf8): self = .mkv
        case Array("webm".utf8): self = .webm
        default: return nil
        }
    }
}
