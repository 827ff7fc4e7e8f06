/// The metadata segments of a JPEG before its first scan: EXIF and XMP APP1s, Photoshop APP13.
/// Walks the marker structure only (no decoder); stops at the scan, at bad structure or at the
/// end of the bytes it has.
struct JPEGSegments: Sequence {
    enum Kind { case exif, xmp, photoshop }

    struct Segment {
        var kind: Kind
        /// After the identifying prefix ("Exif\0\0", the XMP namespace, "Photoshop 3.0\0").
        var payload: ArraySlice<UInt8>
    }

    static let exifPrefix = Array("Exif\0\0".utf8)
    static let xmpPrefix = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    static let photoshopPrefix = Array("Photoshop 3.0\0".utf8)

    private let segments: [Segment]

    /// Nil when `bytes` is not a JPEG.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var found: [Segment] = []
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }                        // fill byte
            if marker == 0xDA || marker == 0xD9 { break }                  // scan or end: no more metadata
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { at += 2; continue }   // no length
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2 else { break }
            let start = at + 4, end = Swift.min(bytes.count, at + 2 + length)
            let body = bytes[start..<Swift.max(start, end)]
            func after(_ prefix: [UInt8]) -> ArraySlice<UInt8>? {
                body.starts(with: prefix) ? body.dropFirst(prefix.count) : nil
            }
            if marker == 0xE1, let payload = after(Self.exifPrefix) {
                found.append(Segment(kind: .exif, payload: payload))
            } else if marker == 0xE1, let payload = after(Self.xmpPrefix) {
                found.append(Segment(kind: .xmp, payload: payload))
            } else if marker == 0xED, let payload = after(Self.photoshopPrefix) {
                found.append(Segment(kind: .photoshop, payload: payload))
            }
            at += 2 + length
        }
        segments = found
    }

    func makeIterator() -> IndexingIterator<[Segment]> { segments.makeIterator() }
}
