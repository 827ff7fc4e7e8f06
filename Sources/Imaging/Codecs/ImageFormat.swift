/// The image formats PhotoKiosk decodes.
public enum ImageFormat: String, Hashable, Sendable, CustomStringConvertible {
    case jpeg
    case png
    /// HEIF stills, HEVC-coded (HEIC) or others libheif reads.
    case heif
    /// AV1-coded stills in the HEIF container.
    case avif
    /// Lossy, lossless or animated (the first frame is shown) WebP.
    case webp
    /// Video clips, shown as their first frame (`ClipDecoder`): MP4, QuickTime and the other
    /// ISO-BMFF video files (the raw value is the extension an upload without one is given)...
    case mp4Clip = "mp4"
    /// ...and Matroska and WebM.
    case matroskaClip = "mkv"

    /// A video clip rather than a still.
    public var isClip: Bool { self == .mp4Clip || self == .matroskaClip }

    /// Recognises a format from the first bytes (the file name is never trusted): JPEG and PNG
    /// signatures, "RIFF....WEBP", an ISO-BMFF `ftyp` box whose brands libheif reads, and video
    /// clips: an `ftyp` box with a video brand, or Matroska's EBML header.
    public static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ImageFormat? {
        let head = Array(bytes.prefix(HEIFDecoder.sniffBytes))
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.count >= 12, head[0..<4].elementsEqual("RIFF".utf8), head[8..<12].elementsEqual("WEBP".utf8) { return .webp }
        return HEIFDecoder.sniff(head) ?? ClipDecoder.sniff(head)
    }

    /// All of them, for messages.
    public static let supportedList = "a JPEG, PNG, HEIF/HEIC, AVIF or WebP image or an MP4, MOV, MKV or WebM clip"

    public var description: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .heif: return "HEIF"
        case .avif: return "AVIF"
        case .webp: return "WebP"
        case .mp4Clip: return "MP4/QuickTime clip"
        case .matroskaClip: return "Matroska/WebM clip"
        }
    }
}
