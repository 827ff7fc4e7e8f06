/// Builds the TIFF structure inside an EXIF APP1 by hand: IFD0 (orientation, ImageDescription,
/// XPTitle, the Exif and GPS pointers), the Exif IFD (DateTimeOriginal), the GPS IFD (latitude,
/// longitude) and IFD1 (thumbnail), in either byte order.
public struct TIFFBuilder {
    public var bigEndian = false
    public var orientation: Int?
    public var dateTimeOriginal: String?
    public var thumbnail: [UInt8]?
    /// Stored as given (ASCII type, NUL added): UTF-8 or Latin-1 bytes both occur in cameras.
    public var imageDescription: [UInt8]?
    /// Stored as UTF-16LE (BYTE type), as Windows writes it.
    public var xpTitle: String?
    /// Degrees; written as degrees/minutes/seconds rationals with N/S and E/W references.
    public var gps: (latitude: Double, longitude: Double)?

    public init(bigEndian: Bool = false, orientation: Int? = nil, dateTimeOriginal: String? = nil, thumbnail: [UInt8]? = nil,
                imageDescription: [UInt8]? = nil, xpTitle: String? = nil, gps: (latitude: Double, longitude: Double)? = nil) {
        self.bigEndian = bigEndian
        self.orientation = orientation
        self.dateTimeOriginal = dateTimeOriginal
        self.thumbnail = thumbnail
        self.imageDescription = imageDescription
        self.xpTitle = xpTitle
        self.gps = gps
    }

    func u16(_ v: Int) -> [UInt8] {
        bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]
    }

    func u32(_ v: Int) -> [UInt8] {
        bigEndian ? u16(v >> 16 & 0xFFFF) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF)
    }

    /// An IFD entry's value: its bytes (in the file's byte order), or a pointer to another IFD
    /// or the thumbnail, filled in once the layout is known.
    enum Value {
        case bytes([UInt8])
        case offsetOf(Part)
        case lengthOfThumbnail
    }

    enum Part { case exifIFD, gpsIFD, ifd1, thumbnail }

    struct Entry {
        var tag: Int
        var type: Int
        var count: Int
        var value: Value
    }

    func rationals(_ degrees: Double) -> [UInt8] {
        let whole = Int(degrees)
        let minutes = Int((degrees - Double(whole)) * 60)
        let seconds = ((degrees - Double(whole)) * 60 - Double(minutes)) * 60
        return u32(whole) + u32(1) + u32(minutes) + u32(1) + u32(Int((seconds * 10_000).rounded())) + u32(10_000)
    }

    public func build() -> [UInt8] {
        var ifd0: [Entry] = []
        if let imageDescription { ifd0.append(Entry(tag: 0x010E, type: 2, count: imageDescription.count + 1, value: .bytes(imageDescription + [0]))) }
        if let orientation { ifd0.append(Entry(tag: 0x0112, type: 3, count: 1, value: .bytes(u16(orientation)))) }
        if dateTimeOriginal != nil { ifd0.append(Entry(tag: 0x8769, type: 4, count: 1, value: .offsetOf(.exifIFD))) }
        if gps != nil { ifd0.append(Entry(tag: 0x8825, type: 4, count: 1, value: .offsetOf(.gpsIFD))) }
        if let xpTitle {
            let utf16 = Array(xpTitle.utf16) + [0]
            let bytes = utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }   // little-endian in both byte orders
            ifd0.append(Entry(tag: 0x9C9B, type: 1, count: bytes.count, value: .bytes(bytes)))
        }
        let exif: [Entry] = dateTimeOriginal.map { date in
            let bytes = Array(date.utf8) + [0]
            return [Entry(tag: 0x9003, type: 2, count: bytes.count, value: .bytes(bytes))]
        } ?? []
        let gpsEntries: [Entry] = gps.map { position in
            [Entry(tag: 1, type: 2, count: 2, value: .bytes(Array((position.latitude < 0 ? "S" : "N").utf8) + [0])),
             Entry(tag: 2, type: 5, count: 3, value: .bytes(rationals(abs(position.latitude)))),
             Entry(tag: 3, type: 2, count: 2, value: .bytes(Array((position.longitude < 0 ? "W" : "E").utf8) + [0])),
             Entry(tag: 4, type: 5, count: 3, value: .bytes(rationals(abs(position.longitude))))]
        } ?? []
        let ifd1: [Entry] = thumbnail == nil ? [] : [
            Entry(tag: 0x0201, type: 4, count: 1, value: .offsetOf(.thumbnail)),
            Entry(tag: 0x0202, type: 4, count: 1, value: .lengthOfThumbnail),
        ]

        // Layout: header(8) | IFD0 | Exif IFD | GPS IFD | IFD1 | values longer than 4 bytes | thumbnail
        func size(_ entries: [Entry]) -> Int { entries.isEmpty ? 0 : 2 + 12 * entries.count + 4 }
        let ifd0Offset = 8
        let exifOffset = ifd0Offset + 2 + 12 * ifd0.count + 4
        let gpsOffset = exifOffset + size(exif)
        let ifd1Offset = gpsOffset + size(gpsEntries)
        var dataOffset = ifd1Offset + size(ifd1)
        let longValues = (ifd0 + exif + gpsEntries + ifd1).compactMap { entry -> [UInt8]? in
            if case .bytes(let b) = entry.value, b.count > 4 { return b }
            return nil
        }
        let thumbnailOffset = dataOffset + longValues.reduce(0) { $0 + $1.count }
        func offset(_ part: Part) -> Int {
            switch part {
            case .exifIFD: exifOffset
            case .gpsIFD: gpsOffset
            case .ifd1: ifd1Offset
            case .thumbnail: thumbnailOffset
            }
        }

        var data: [UInt8] = []
        func table(_ entries: [Entry], next: Int) -> [UInt8] {
            var out = u16(entries.count)
            for entry in entries {
                out += u16(entry.tag) + u16(entry.type) + u32(entry.count)
                switch entry.value {
                case .bytes(let b) where b.count > 4:
                    out += u32(dataOffset)
                    dataOffset += b.count
                    data += b
                case .bytes(let b): out += b + [UInt8](repeating: 0, count: 4 - b.count)
                case .offsetOf(let part): out += u32(offset(part))
                case .lengthOfThumbnail: out += u32(thumbnail?.count ?? 0)
                }
            }
            return out + u32(next)
        }
        var out: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(ifd0Offset)
        out += table(ifd0, next: thumbnail != nil ? ifd1Offset : 0)
        if !exif.isEmpty { out += table(exif, next: 0) }
        if !gpsEntries.isEmpty { out += table(gpsEntries, next: 0) }
        if !ifd1.isEmpty { out += table(ifd1, next: 0) }
        return out + data + (thumbnail ?? [])
    }
}
