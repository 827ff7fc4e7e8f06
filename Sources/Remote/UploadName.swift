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

    /// The `attempt`-th candidate for a taken name: 1 is the name itself, then "stem-2.ext", …
    public static func candidate(_ name: [UInt8], attempt: Int) -> [UInt8] {
        guard attempt > 1 else { return name }
        let (stem, ext) = split(name)
        return stem + Array("-\(attempt)".utf8) + ext
    }

    /// (stem, ".ext"); a name without a dot (or only a leading one) has no extension.
    static func split(_ name: [UInt8]) -> ([UInt8], [UInt8]) {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return (name, []) }
        return (Array(name[..<dot]), Array(name[dot...]))
    }

    /// Cuts at `count` bytes without splitting a UTF-8 sequence.
    private static func truncatedAtCharacter(_ bytes: [UInt8], to count: Int) -> ArraySlice<UInt8> {
        var end = max(0, min(count, bytes.count))
        while end > 0, end < bytes.count, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return bytes[..<end]
    }
}
