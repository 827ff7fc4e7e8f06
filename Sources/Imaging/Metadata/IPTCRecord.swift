/// The IPTC-IIM caption inside a JPEG's Photoshop APP13: image resource 0x0404 holds IIM
/// datasets, and 2:120 is Caption/Abstract. Every length is checked against the bytes.
enum IPTCRecord {
    static let iptcResource = 0x0404
    static let captionRecord: UInt8 = 2
    static let captionDataset: UInt8 = 120

    /// `resources`: what follows "Photoshop 3.0\0" — a run of "8BIM" image resource blocks.
    static func caption(inPhotoshopResources resources: ArraySlice<UInt8>) -> String? {
        let b = Array(resources)
        var at = 0
        while at + 12 <= b.count, b[at..<(at + 4)].elementsEqual("8BIM".utf8) {
            let id = Int(b[at + 4]) << 8 | Int(b[at + 5])
            // The name: a Pascal string padded to an even length (length byte included).
            let nameLength = Int(b[at + 6])
            var sizeAt = at + 6 + nameLength + 1
            if (nameLength + 1) % 2 == 1 { sizeAt += 1 }
            guard sizeAt + 4 <= b.count else { return nil }
            let size = Int(b[sizeAt]) << 24 | Int(b[sizeAt + 1]) << 16 | Int(b[sizeAt + 2]) << 8 | Int(b[sizeAt + 3])
            let dataAt = sizeAt + 4
            guard size >= 0, size <= b.count - dataAt else { return nil }
            if id == iptcResource { return caption(inDatasets: b[dataAt..<(dataAt + size)]) }
            at = dataAt + size + size % 2
        }
        return nil
    }

    /// IIM datasets: 0x1C, record, dataset, a 2-byte length, the data.
    static func caption(inDatasets datasets: ArraySlice<UInt8>) -> String? {
        let b = Array(datasets)
        var at = 0
        while at + 5 <= b.count, b[at] == 0x1C {
            let length = Int(b[at + 3]) << 8 | Int(b[at + 4])
            guard length & 0x8000 == 0 else { return nil }   // extended lengths are never captions
            let dataAt = at + 5
            guard length <= b.count - dataAt else { return nil }
            if b[at + 1] == captionRecord, b[at + 2] == captionDataset {
                return MetadataText.decode(b[dataAt..<(dataAt + length)])
            }
            at = dataAt + length
        }
        return nil
    }
}
