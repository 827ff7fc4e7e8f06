/// What the information overlay tells about a photo: when it was taken, its caption and where.
/// Read from the file's beginning (`ImageDecoder.probePrefixBytes`), without decoding pixels.
public struct PhotoDetails: Hashable, Sendable {
    /// DateTimeOriginal as stored ("2024:05:17 14:03:22"); see `ExifData.dateTimeOriginalSeconds`.
    public var dateTimeOriginal: String?
    /// The first of: EXIF ImageDescription, EXIF XPTitle, XMP dc:title, XMP dc:description,
    /// IPTC Caption/Abstract (2:120). Camera makers' placeholders are skipped.
    public var caption: String?
    /// The EXIF GPS position.
    public var position: GeoPosition?

    public init(dateTimeOriginal: String? = nil, caption: String? = nil, position: GeoPosition? = nil) {
        self.dateTimeOriginal = dateTimeOriginal
        self.caption = caption
        self.position = position
    }

    public var isEmpty: Bool { dateTimeOriginal == nil && caption == nil && position == nil }

    /// The details of the photo at `path`; empty when the file cannot be read or has none.
    /// A JPEG's metadata segments come before its image data, within the file's beginning; other
    /// formats may keep EXIF after the image (WebP) or need the whole file to be probed (a large
    /// HEIC), which the decoders' probe knows.
    public static func read(path: RawPath) -> PhotoDetails {
        guard let head = try? FileReader.read(path: path, prefix: ImageDecoder.probePrefixBytes) else { return PhotoDetails() }
        if JPEGSegments(head) != nil { return parse(head) }
        return parse(head, exif: (try? ImageDecoder.probe(path: path))?.exif)
    }

    /// The details in a file's bytes (all of it, or its beginning).
    public static func parse(_ bytes: [UInt8]) -> PhotoDetails {
        parse(bytes, exif: nil)
    }

    /// `knownExif`: a non-JPEG's EXIF, already found by probing the file.
    static func parse(_ bytes: [UInt8], exif knownExif: ExifData?) -> PhotoDetails {
        var exif: ExifData? = knownExif
        var xmp: XMPPacket?
        var iptcCaption: String?
        if let segments = JPEGSegments(bytes) {
            for segment in segments {
                switch segment.kind {
                case .exif: exif = exif ?? ExifData.parse(segment.payload)
                case .xmp: xmp = xmp ?? XMPPacket(segment.payload)
                case .photoshop: iptcCaption = iptcCaption ?? IPTCRecord.caption(inPhotoshopResources: segment.payload)
                }
            }
        } else {
            // PNG (eXIf, iTXt), WebP (EXIF, XMP chunks), HEIF (items): the decoders find the EXIF;
            // the XMP packet is plain text wherever it is stored uncompressed.
            exif = exif ?? (try? ImageDecoder.probe(bytes: bytes, isPrefix: true))?.exif
            xmp = XMPPacket(searching: bytes)
        }
        let candidates = [exif?.imageDescription, exif?.xpTitle, xmp?.title, xmp?.description, iptcCaption]
        return PhotoDetails(dateTimeOriginal: exif?.dateTimeOriginal,
                            caption: candidates.lazy.compactMap { $0 }.first(where: { !Self.isPlaceholder($0) }),
                            position: exif?.position)
    }

    /// What cameras write into ImageDescription when the person wrote nothing.
    static let placeholders: Set<String> = [
        "OLYMPUS DIGITAL CAMERA", "SONY DSC", "DIGITAL CAMERA", "KODAK DIGITAL STILL CAMERA", "MINOLTA DIGITAL CAMERA",
        "SAMSUNG DIGITAL CAMERA", "DCIM", "DEFAULT", "IMAGE", "PICTURE", "PHOTO", "UNTITLED", "NO TITLE",
    ]

    static func isPlaceholder(_ caption: String) -> Bool {
        placeholders.contains(caption.uppercased())
    }
}
