/// The one value PhotoKiosk reads from the maker note an iPhone writes into a photo's EXIF
/// (tag 0x927C): the content identifier that ties a Live Photo's still to its MOV.
///
/// The layout (as libexif and ExifTool read it): "Apple iOS\0", a 2-byte version, "MM" or "II",
/// then an IFD whose value offsets count from the maker note's first byte. Tag 0x0011 holds the
/// identifier as ASCII, a UUID ("FFCBAC24-E547-4BBC-AF47-38B1A3D845E3").
enum AppleMakerNote {
    static let signature = Array("Apple iOS\0".utf8)
    static let contentIdentifierTag = 0x0011
    /// A UUID is 36 characters; anything much longer is not one.
    static let maxIdentifierLength = 64

    static func contentIdentifier(_ note: ArraySlice<UInt8>) -> String? {
        let bytes = Array(note)
        guard bytes.count >= 16, bytes.starts(with: signature) else { return nil }
        let bigEndian: Bool
        switch (bytes[12], bytes[13]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        var reader = TIFFReader(bytes, bigEndian: bigEndian, firstIFD: 14)
        // One character more than an identifier may have: too long is refused, not cut short.
        guard let ifd = reader.readIFD(at: 14),
              let entry = ifd.entries.first(where: { $0.tag == contentIdentifierTag }),
              let text = reader.ascii(entry, limit: maxIdentifierLength + 1) else { return nil }
        return ContentIdentifier.normalised(text)
    }
}

/// A Live Photo's content identifier as both halves carry it, compared case-insensitively
/// (iOS writes upper-case UUIDs; tools that make pairs do not always).
public enum ContentIdentifier {
    /// Upper-cased; nil unless 8 to 64 characters of letters, digits and '-'.
    public static func normalised(_ text: String) -> String? {
        let scalars = text.unicodeScalars
        guard (8...AppleMakerNote.maxIdentifierLength).contains(scalars.count),
              scalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-") })
        else { return nil }
        return text.uppercased()
    }
}
