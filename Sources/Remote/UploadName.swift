import Imaging
import PhotoKioskApp

/// The name an uploaded photo is kept under: the client's file name reduced to a plain base
/// name (no folders, no "..", no hidden file, no control bytes), with the detected format's
/// extension when it has none the library lists, and a "-2", "-3"… before the extension when
/// the name is taken. Bytes throughout: a name need not be UTF-8.
public enum UploadName {
    public static let maximumBytes = 200

    /// The safe base name for `clientName` (never empty, never "." or "..").
    public static func safe(_ clientName: [UInt8], format: ImageFormat?) -> [UInt8] {
        // Browsers on Windows may send "C:\photos\a.jpg"; both separators end a folder.
        var name = Array(clientName.split(whereSeparator: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }).last ?? [])
        name.removeAll { $0 < 0x20 || $0 == 0x7F }
        while let first = name.first, first == UInt8(ascii: ".") || first == UInt8(ascii: " ") { name.removeFirst() }
        while let last = name.last, last == UInt8(ascii: " ") || last == UInt8(ascii: ".") { name.removeLast() }
        if name.isEmpty { name = Array("upload".utf8) }
        if PhotoFileType(fileName: name) == nil, let format {
            name += Array(".\(format.rawValue)".utf8)
        }
        if name.count > maximumBytes {
            let (stem, ext) = split(name)
            name = Array(truncatedAtCharacter(stem, to: maximumBytes - ext.count)) + ext
        }
        return name
    }

    /// Why `clientName` is refused outright (400), or nil: a control character (a line break
    /// makes a name that DELETE cannot address and log lines that lie) or a Unicode direction
    /// control, which makes "gpj.\u{202E}txt.jpg" show as another name than it has.
    public static func refusal(_ clientName: [UInt8]) -> String? {
        if clientName.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            return "the file name contains a line break or another control character"
        }
        let scalars = String(decoding: clientName, as: UTF8.self).unicodeScalars
        if let control = scalars.first(where: { directionControls.contains($0.value) }) {
            return "the file name contains the direction control U+\(String(control.value, radix: 16, uppercase: true)), which makes a name show as another"
        }
        return nil
    }

    /// U+200E/F, U+061C, U+202A-202E, U+2066-2069.
    static let directionControls: Set<UInt32> = [0x200E, 0x200F, 0x061C, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
                                                 0x2066, 0x2067, 0x2068, 0x2069]

    /// Longest extension kept as one (".jpeg"); a longer "extension" is part of the stem.
    static let maximumExtensionBytes = 8

    /// The `attempt`-th candidate for a taken name: 1 is the name itself, then "stem-2.ext", …
    public static func candidate(_ name: [UInt8], attempt: Int) -> [UInt8] {
        guard attempt > 1 else { return name }
        let (stem, ext) = split(name)
        return stem + Array("-\(attempt)".utf8) + ext
    }

    /// Whether a name's photo type matches the sniffed format (HEIF and AVIF share a container).
    static func `extension`(_ named: PhotoFileType, fits format: ImageFormat) -> Bool {
        switch (named, format) {
        case (.jpeg, .jpeg), (.png, .png), (.webp, .webp), (.heif, .heif), (.avif, .avif), (.heif, .avif), (.avif, .heif): true
        // Clips: the ISO-BMFF names share one sniffed format, and WebM is Matroska.
        case (.mp4, .mp4Clip), (.mov, .mp4Clip), (.m4v, .mp4Clip), (.mkv, .matroskaClip), (.webm, .matroskaClip): true
        default: false
        }
    }

    /// (stem, ".ext"); a name without a dot (or only a leading one) has no extension.
    static func split(_ name: [UInt8]) -> ([UInt8], [UInt8]) {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0, name.count - dot <= maximumExtensionBytes else { return (name, []) }
        return (Array(name[..<dot]), Array(name[dot...]))
    }

    /// Cuts at `count` bytes without splitting a UTF-8 sequence.
    private static func truncatedAtCharacter(_ bytes: [UInt8], to count: Int) -> ArraySlice<UInt8> {
        var end = max(0, min(count, bytes.count))
        while end > 0, end < bytes.count, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return bytes[..<end]
    }
}
