import SystemAccess
import SystemPackage

/// Whether a still and a QuickTime clip are the two halves of one iPhone Live Photo, by the
/// content identifier iOS writes into both: the still's in Apple's EXIF maker note
/// (`ExifData.contentIdentifier`), the clip's as `com.apple.quicktime.content.identifier`
/// (`QuickTimeMetadata`). Reads the still's beginning (a HEIC is probed) and the clip's box
/// headers and moov only, never its media data.
public enum LivePhotoIdentity {
    public enum Match: Sendable, Hashable {
        /// Both identifiers read and are the same.
        case same
        /// Both read and differ: not one Live Photo.
        case different
        /// One or both could not be read (not from an iPhone, edited, unreadable): the names decide.
        case unknown
    }

    public static func match(still: RawPath, clip: RawPath) -> Match {
        guard let a = stillIdentifier(path: still), let b = clipIdentifier(path: clip) else { return .unknown }
        return a.uppercased() == b.uppercased() ? .same : .different
    }

    /// The still's content identifier (JPEG or HEIC), if it has one.
    public static func stillIdentifier(path: RawPath) -> String? {
        guard let head = try? FileReader.read(path: path, prefix: ImageDecoder.probePrefixBytes) else { return nil }
        if let segments = JPEGSegments(head) {
            for segment in segments where segment.kind == .exif {
                if let identifier = ExifData.parse(segment.payload)?.contentIdentifier { return identifier }
            }
            return nil
        }
        return (try? ImageDecoder.probe(path: path))?.exif?.contentIdentifier
    }

    /// The clip's content identifier, if its QuickTime metadata has one.
    public static func clipIdentifier(path: RawPath) -> String? {
        guard let (file, size) = try? FileReader.openChecked(filePath: path.filePath, maxBytes: Int.max) else { return nil }
        defer { file.closeQuietly() }
        return QuickTimeMetadata.contentIdentifier(fileSize: size) { FileReader.bytes(of: file, at: $0, count: $1) }
    }
}
