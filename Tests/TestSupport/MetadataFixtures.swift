import Imaging

/// Metadata segments for JPEG fixtures beside EXIF (`TIFFBuilder`): an XMP packet as Lightroom
/// and darktable write it, and Photoshop's IPTC-IIM record.
public enum MetadataFixtures {
    /// An XMP packet with dc:title and dc:description as rdf:Alt lists (`extraLanguages` items
    /// come before the x-default one, to check which is chosen).
    public static func xmpPacket(title: String?, description: String?, extraLanguages: [String: String] = [:]) -> String {
        func alt(_ name: String, _ text: String?) -> String {
            guard let text else { return "" }
            let others = extraLanguages.sorted(by: { $0.key < $1.key })
                .map { "<rdf:li xml:lang=\"\($0.key)\">\($0.value)</rdf:li>" }.joined()
            return "<dc:\(name)><rdf:Alt>\(others)<rdf:li xml:lang=\"x-default\">\(text)</rdf:li></rdf:Alt></dc:\(name)>"
        }
        return """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
        \(alt("title", title))\(alt("description", description))
        </rdf:Description></rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """
    }

    public static func xmp(title: String?, description: String?, extraLanguages: [String: String] = [:]) -> JPEGEncoder.Marker {
        JPEGEncoder.Marker(code: 0xE1, payload: Array("http://ns.adobe.com/xap/1.0/\0".utf8)
            + Array(xmpPacket(title: title, description: description, extraLanguages: extraLanguages).utf8))
    }

    /// APP13 "Photoshop 3.0" with an unrelated resource first, then the IPTC record holding
    /// 1:90 (UTF-8), 2:05 (object name) and 2:120 (caption) as `caption`'s bytes.
    public static func iptc(caption: [UInt8]) -> JPEGEncoder.Marker {
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func be32(_ v: Int) -> [UInt8] { be16(v >> 16) + be16(v & 0xFFFF) }
        func dataset(_ record: UInt8, _ number: UInt8, _ data: [UInt8]) -> [UInt8] { [0x1C, record, number] + be16(data.count) + data }
        let iim = dataset(1, 90, [0x1B, 0x25, 0x47]) + dataset(2, 5, Array("object".utf8)) + dataset(2, 120, caption)
        func resource(_ id: Int, _ data: [UInt8]) -> [UInt8] {
            Array("8BIM".utf8) + be16(id) + [0, 0] + be32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
        }
        return JPEGEncoder.Marker(code: 0xED, payload: Array("Photoshop 3.0\0".utf8)
            + resource(0x03ED, [1, 2, 3]) + resource(0x0404, iim))
    }
}
