/// Builds the TIFF structure inside an EXIF APP1 by hand: IFD0 (orientation, Exif pointer),
/// the Exif IFD (DateTimeOriginal) and IFD1 (thumbnail), in either byte order.
public struct TIFFBuilder {
    public var bigEndian = false
    public var orientation: Int?
    public var dateTimeOriginal: String?
    public var thumbnail: [UInt8]?

    public init(bigEndian: Bool = false, orientation: Int? = nil, dateTimeOriginal: String? = nil, thumbnail: [UInt8]? = nil) {
        self.bigEndian = bigEndian
        self.orientation = orientation
        self.dateTimeOriginal = dateTimeOriginal
        self.thumbnail = thumbnail
    }

    func u16(_ v: Int) -> [UInt8] {
        bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]
    }

    func u32(_ v: Int) -> [UInt8] {
        bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16)
    }

    public func build() -> [UInt8] {
        // Layout: header(8) | IFD0 | ExifIFD | IFD1 | date | thumbnail
        let ifd0Count = (orientation != nil ? 1 : 0) + (dateTimeOriginal != nil ? 1 : 0)
        let exifCount = dateTimeOriginal != nil ? 1 : 0
        let ifd1Count = thumbnail != nil ? 2 : 0
        func ifdSize(_ n: Int) -> Int { n == 0 ? 0 : 2 + 12 * n + 4 }
        let ifd0 = 8
        let exifIFD = ifd0 + 2 + 12 * ifd0Count + 4
        let ifd1 = exifIFD + ifdSize(exifCount)
        let dateOffset = ifd1 + ifdSize(ifd1Count)
        let dateBytes: [UInt8] = dateTimeOriginal.map { Array($0.utf8) + [0] } ?? []
        let thumbOffset = dateOffset + dateBytes.count

        var out: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(ifd0)
        out += u16(ifd0Count)
        if let orientation { out += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0] }
        if dateTimeOriginal != nil { out += u16(0x8769) + u16(4) + u32(1) + u32(exifIFD) }
        out += u32(thumbnail != nil ? ifd1 : 0)
        if dateTimeOriginal != nil {
            out += u16(1) + u16(0x9003) + u16(2) + u32(dateBytes.count) + u32(dateOffset) + u32(0)
        }
        if let thumbnail {
            out += u16(2)
            out += u16(0x0201) + u16(4) + u32(1) + u32(thumbOffset)
            out += u16(0x0202) + u16(4) + u32(1) + u32(thumbnail.count)
            out += u32(0)
        }
        out += dateBytes
        out += thumbnail ?? []
        return out
    }
}
