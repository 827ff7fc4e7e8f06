/// What the viewer uses from a photo's EXIF block.
public struct ExifData: Hashable, Sendable {
    /// Orientation from IFD0; nil when absent or not 1...8.
    public var orientation: ExifOrientation?
    /// DateTimeOriginal from the Exif sub-IFD, as stored ("2024:05:17 14:03:22").
    public var dateTimeOriginal: String?
    /// The embedded JPEG thumbnail (IFD1 JPEGInterchangeFormat/Length): a fast first paint.
    public var thumbnail: [UInt8]?
    /// ImageDescription from IFD0, whitespace folded (see `MetadataText`); nil when absent or blank.
    public var imageDescription: String?
    /// XPTitle from IFD0 (Windows' "Title", UTF-16LE), whitespace folded.
    public var xpTitle: String?
    /// Where the photo was taken (the GPS IFD's latitude and longitude).
    public var position: GeoPosition?
    /// An iPhone's Live Photo content identifier (its maker note), upper-cased: the same value
    /// is in the MOV that belongs to this still (`QuickTimeMetadata`).
    public var contentIdentifier: String?

    public init(orientation: ExifOrientation? = nil, dateTimeOriginal: String? = nil, thumbnail: [UInt8]? = nil,
                imageDescription: String? = nil, xpTitle: String? = nil, position: GeoPosition? = nil,
                contentIdentifier: String? = nil) {
        self.orientation = orientation
        self.dateTimeOriginal = dateTimeOriginal
        self.thumbnail = thumbnail
        self.imageDescription = imageDescription
        self.xpTitle = xpTitle
        self.position = position
        self.contentIdentifier = contentIdentifier
    }

    /// Parses an EXIF APP1 payload: the TIFF structure, with or without the leading "Exif\0\0".
    ///
    /// Hostile input is expected: every offset is checked against the buffer, IFD entry counts
    /// are capped, and each IFD is visited once. Returns nil when there is no valid TIFF header;
    /// otherwise whatever could be read before the data went bad.
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ExifData? {
        var data = Array(bytes)
        if data.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) { data.removeFirst(6) }
        guard var reader = TIFFReader(data) else { return nil }
        return reader.readExif()
    }
}

/// A bounds-checked reader over a TIFF structure (offsets are relative to its first byte).
struct TIFFReader {
    static let maxEntriesPerIFD = 1024
    static let maxDateLength = 64
    /// Apple's maker notes are a few kilobytes; the identifier is in the first entries.
    static let maxMakerNoteBytes = 64 << 10

    let bytes: [UInt8]
    let bigEndian: Bool
    let firstIFD: Int
    private var visited: Set<Int> = []

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        self.bytes = bytes
        guard let magic = TIFFReader.u16(bytes, 2, bigEndian), magic == 42,
              let offset = TIFFReader.u32(bytes, 4, bigEndian) else { return nil }
        firstIFD = offset
    }

    /// A TIFF-style IFD without a TIFF header (a maker note: its byte order and first IFD are
    /// found by its own signature).
    init(_ bytes: [UInt8], bigEndian: Bool, firstIFD: Int) {
        self.bytes = bytes
        self.bigEndian = bigEndian
        self.firstIFD = firstIFD
    }

    struct Entry {
        var tag: Int
        var type: Int
        var count: Int
        /// Where the value lives: inline in the entry (4 bytes or fewer) or at the stored offset.
        var valueOffset: Int
    }

    static func u16(_ b: [UInt8], _ at: Int, _ bigEndian: Bool) -> Int? {
        guard at >= 0, at <= b.count - 2 else { return nil }
        return bigEndian ? Int(b[at]) << 8 | Int(b[at + 1]) : Int(b[at + 1]) << 8 | Int(b[at])
    }

    static func u32(_ b: [UInt8], _ at: Int, _ bigEndian: Bool) -> Int? {
        guard let hi = u16(b, bigEndian ? at : at + 2, bigEndian),
              let lo = u16(b, bigEndian ? at + 2 : at, bigEndian) else { return nil }
        return hi << 16 | lo
    }

    func u16(_ at: Int) -> Int? { TIFFReader.u16(bytes, at, bigEndian) }
    func u32(_ at: Int) -> Int? { TIFFReader.u32(bytes, at, bigEndian) }

    static func typeSize(_ type: Int) -> Int? {
        switch type {
        case 1, 2, 6, 7: return 1       // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: return 2             // SHORT, SSHORT
        case 4, 9, 11: return 4         // LONG, SLONG, FLOAT
        case 5, 10, 12: return 8        // RATIONAL, SRATIONAL, DOUBLE
        default: return nil
        }
    }

    /// The entries of the IFD at `offset` and the offset of the next IFD (nil when none or bad).
    /// Nil when the IFD was already visited (a loop) or does not fit in the buffer.
    mutating func readIFD(at offset: Int) -> (entries: [Entry], next: Int?)? {
        guard offset >= 8, !visited.contains(offset), let count = u16(offset) else { return nil }
        visited.insert(offset)
        guard count <= TIFFReader.maxEntriesPerIFD else { return nil }
        var entries: [Entry] = []
        for i in 0..<count {
            let at = offset + 2 + i * 12
            guard let tag = u16(at), let type = u16(at + 2), let n = u32(at + 4), let raw = u32(at + 8) else {
                return (entries, nil)  // the table runs off the end: keep what was read
            }
            guard let size = TIFFReader.typeSize(type) else { continue }
            let total = size.multipliedReportingOverflow(by: n)
            guard !total.overflow else { continue }
            let valueOffset = total.partialValue <= 4 ? at + 8 : raw
            guard valueOffset >= 0, total.partialValue <= bytes.count - valueOffset else { continue }
            entries.append(Entry(tag: tag, type: type, count: n, valueOffset: valueOffset))
        }
        let next = u32(offset + 2 + count * 12).flatMap { $0 == 0 ? nil : $0 }
        return (entries, next)
    }

    /// An unsigned integer value (SHORT or LONG, first element).
    func integer(_ entry: Entry) -> Int? {
        guard entry.count >= 1 else { return nil }
        switch entry.type {
        case 3: return u16(entry.valueOffset)
        case 4: return u32(entry.valueOffset)
        default: return nil
        }
    }

    /// An ASCII value up to its first NUL; nil when empty, too long, or not printable.
    func ascii(_ entry: Entry, limit: Int = TIFFReader.maxDateLength) -> String? {
        guard entry.type == 2, entry.count >= 1 else { return nil }
        let length = min(entry.count, limit)
        var chars: [UInt8] = []
        for i in 0..<length {
            let c = bytes[entry.valueOffset + i]
            if c == 0 { break }
            guard c >= 0x20, c < 0x7F else { return nil }
            chars.append(c)
        }
        return chars.isEmpty ? nil : String(decoding: chars, as: UTF8.self)
    }

    /// The value's bytes (at most `limit`), for text stored as ASCII or BYTE.
    func rawBytes(_ entry: Entry, limit: Int) -> ArraySlice<UInt8>? {
        guard let size = TIFFReader.typeSize(entry.type), size == 1 else { return nil }
        let length = min(entry.count, limit)
        return bytes[entry.valueOffset..<(entry.valueOffset + length)]
    }

    /// Element `index` of a RATIONAL value as a Double; nil for a zero denominator.
    func rational(_ entry: Entry, _ index: Int) -> Double? {
        guard entry.type == 5, index < entry.count,
              let numerator = u32(entry.valueOffset + index * 8),
              let denominator = u32(entry.valueOffset + index * 8 + 4), denominator != 0 else { return nil }
        return Double(numerator) / Double(denominator)
    }

    /// Degrees from a GPS (degrees, minutes, seconds) RATIONAL triple, signed by its reference
    /// letter ("S" and "W" are negative).
    func coordinate(_ value: Entry?, reference: Entry?, negative: UInt8) -> Double? {
        guard let value, let degrees = rational(value, 0) else { return nil }
        let minutes = value.count >= 2 ? (rational(value, 1) ?? 0) : 0
        let seconds = value.count >= 3 ? (rational(value, 2) ?? 0) : 0
        let magnitude = degrees + minutes / 60 + seconds / 3600
        let letter = reference.flatMap { rawBytes($0, limit: 1)?.first }
        return letter == negative ? -magnitude : magnitude
    }

    mutating func readGPS(at offset: Int) -> GeoPosition? {
        guard let ifd = readIFD(at: offset) else { return nil }
        func entry(_ tag: Int) -> Entry? { ifd.entries.first(where: { $0.tag == tag }) }
        guard let latitude = coordinate(entry(Tag.gpsLatitude), reference: entry(Tag.gpsLatitudeRef), negative: UInt8(ascii: "S")),
              let longitude = coordinate(entry(Tag.gpsLongitude), reference: entry(Tag.gpsLongitudeRef), negative: UInt8(ascii: "W"))
        else { return nil }
        return GeoPosition(latitude: latitude, longitude: longitude)
    }

    enum Tag {
        static let orientation = 0x0112
        static let imageDescription = 0x010E
        static let xpTitle = 0x9C9B
        static let gpsIFD = 0x8825
        static let gpsLatitudeRef = 1
        static let gpsLatitude = 2
        static let gpsLongitudeRef = 3
        static let gpsLongitude = 4
        static let exifIFD = 0x8769
        static let dateTimeOriginal = 0x9003
        static let makerNote = 0x927C
        static let thumbnailOffset = 0x0201
        static let thumbnailLength = 0x0202
    }

    mutating func readExif() -> ExifData? {
        guard let ifd0 = readIFD(at: firstIFD) else { return nil }
        var exif = ExifData()
        var exifIFDOffset: Int?
        var gpsIFDOffset: Int?
        for entry in ifd0.entries {
            switch entry.tag {
            case Tag.orientation: exif.orientation = integer(entry).flatMap(ExifOrientation.init(rawValue:))
            case Tag.exifIFD: exifIFDOffset = integer(entry)
            case Tag.gpsIFD: gpsIFDOffset = integer(entry)
            case Tag.imageDescription:
                exif.imageDescription = rawBytes(entry, limit: MetadataText.maxBytes).flatMap(MetadataText.decode)
            case Tag.xpTitle:
                exif.xpTitle = rawBytes(entry, limit: MetadataText.maxBytes).flatMap(MetadataText.decodeUTF16LE)
            default: break
            }
        }
        if let exifIFDOffset, let sub = readIFD(at: exifIFDOffset) {
            if let date = sub.entries.first(where: { $0.tag == Tag.dateTimeOriginal }) {
                exif.dateTimeOriginal = ascii(date)
            }
            if let note = sub.entries.first(where: { $0.tag == Tag.makerNote }),
               let noteBytes = rawBytes(note, limit: Self.maxMakerNoteBytes) {
                exif.contentIdentifier = AppleMakerNote.contentIdentifier(noteBytes)
            }
        }
        if let gpsIFDOffset { exif.position = readGPS(at: gpsIFDOffset) }
        if let ifd1Offset = ifd0.next, let ifd1 = readIFD(at: ifd1Offset) {
            let start = ifd1.entries.first(where: { $0.tag == Tag.thumbnailOffset }).flatMap(integer)
            let length = ifd1.entries.first(where: { $0.tag == Tag.thumbnailLength }).flatMap(integer)
            if let start, let length, length >= 4, start >= 8, length <= bytes.count - start,
               bytes[start] == 0xFF, bytes[start + 1] == 0xD8 {
                exif.thumbnail = Array(bytes[start..<(start + length)])
            }
        }
        return exif
    }
}
