/// The photo formats the library lists, recognised by extension (case-insensitive) so a scan
/// never has to open a file to decide.
public enum PhotoFileType: Sendable, Hashable {
    case jpeg
    case png

    /// The type for a file name ending in .jpg, .jpeg or .png in any case; nil otherwise.
    public init?(fileName: [UInt8]) {
        guard let dot = fileName.lastIndex(of: UInt8(ascii: ".")), dot > fileName.startIndex else {
            return nil
        }
        let ext = fileName[(dot + 1)...].map { $0 | 0x20 }   // ASCII lower-case; other bytes never match
        switch ext {
        case Array("jpg".utf8), Array("jpeg".utf8): self = .jpeg
        case Array("png".utf8): self = .png
        default: return nil
        }
    }
}
