/// Text from a photo's metadata (EXIF, XMP, IPTC) made fit for one line on screen: UTF-8 when
/// it is valid UTF-8, else Latin-1 (older cameras and IPTC editors); NULs end it; runs of
/// whitespace and control characters become one space; blank text is nil.
public enum MetadataText {
    /// Longer values are cut here: a caption line never needs more.
    static let maxBytes = 2000

    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        let text = Array(bytes.prefix(while: { $0 != 0 }).prefix(maxBytes))
        if let utf8 = String(validating: text, as: UTF8.self) { return folded(utf8.unicodeScalars) }
        return folded(text.map { Unicode.Scalar($0) })
    }

    /// UTF-16 little-endian, as Windows writes the XP* tags.
    public static func decodeUTF16LE<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        let raw = Array(bytes.prefix(maxBytes))
        var units: [UInt16] = []
        var i = 0
        while i + 1 < raw.count {
            let unit = UInt16(raw[i]) | UInt16(raw[i + 1]) << 8
            if unit == 0 { break }
            units.append(unit)
            i += 2
        }
        return folded(String(decoding: units, as: UTF16.self).unicodeScalars)
    }

    static func folded<Scalars: Sequence<Unicode.Scalar>>(_ scalars: Scalars) -> String? {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in scalars {
            if scalar.properties.isWhitespace || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(" ") }
            pendingSpace = false
            out.append(scalar)
        }
        return out.isEmpty ? nil : String(out)
    }
}
