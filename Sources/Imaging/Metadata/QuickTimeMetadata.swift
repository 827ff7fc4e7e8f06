/// The content identifier of a Live Photo's MOV: QuickTime metadata in `moov/meta`, a `keys`
/// list naming `com.apple.quicktime.content.identifier` and an `ilst` whose item (numbered by
/// the key's position) holds the value in a `data` box.
///
/// Reads box headers only until `moov` (the media data, which may come first, is skipped, never
/// read), then `moov` itself if it is of a sane size. Every size is checked against its parent.
public enum QuickTimeMetadata {
    static let contentIdentifierKey = Array("com.apple.quicktime.content.identifier".utf8)
    /// A phone's short clip has a `moov` of tens of kilobytes; a long film's may be megabytes.
    static let maxMoovBytes = 4 << 20
    /// Boxes walked at the top level before giving up (a real file has a handful).
    static let maxTopLevelBoxes = 64

    public static func contentIdentifier(fileSize: Int, read: (_ offset: Int, _ count: Int) -> [UInt8]?) -> String? {
        var offset = 0
        for _ in 0..<maxTopLevelBoxes {
            guard offset <= fileSize - 8, let header = read(offset, 16), header.count >= 8 else { return nil }
            guard let box = BoxHeader(header[...], at: 0, limit: fileSize - offset) else { return nil }
            if box.type == "moov" {
                guard box.size <= maxMoovBytes, let moov = read(offset, box.size), moov.count == box.size else { return nil }
                return identifier(inMoov: moov[box.headerSize...])
            }
            offset += box.size
        }
        return nil
    }

    /// The same, from a whole file (or a `moov` box) in memory.
    public static func contentIdentifier(_ bytes: [UInt8]) -> String? {
        contentIdentifier(fileSize: bytes.count) { offset, count in
            guard offset >= 0, offset < bytes.count, count >= 0 else { return nil }
            return Array(bytes[offset..<min(bytes.count, offset + count)])
        }
    }

    static func identifier(inMoov moov: ArraySlice<UInt8>) -> String? {
        guard let meta = children(of: moov).first(where: { $0.type == "meta" }) else { return nil }
        var body = meta.body
        // QuickTime's meta holds its boxes at once; ISO's (a full box) after 4 bytes of version
        // and flags.
        if children(of: body).first?.type != "hdlr", body.count >= 4 { body = body.dropFirst(4) }
        let boxes = children(of: body)
        guard let keys = boxes.first(where: { $0.type == "keys" }),
              let items = boxes.first(where: { $0.type == "ilst" }),
              let index = keyIndex(of: contentIdentifierKey, in: keys.body) else { return nil }
        for item in children(of: items.body) where item.rawType == UInt32(index) {
            guard let data = children(of: item.body).first(where: { $0.type == "data" }), data.body.count > 8 else { continue }
            // data: a type indicator (1: UTF-8) and a locale, then the value.
            let indicator = BoxHeader.u32(data.body, data.body.startIndex)
            guard indicator == 1 else { continue }
            let value = data.body.dropFirst(8).prefix(AppleMakerNote.maxIdentifierLength + 1)
            return ContentIdentifier.normalised(String(decoding: value, as: UTF8.self))
        }
        return nil
    }

    /// The 1-based position of `key` in a `keys` box (version and flags, a count, then entries
    /// of size, namespace and name).
    static func keyIndex(of key: [UInt8], in body: ArraySlice<UInt8>) -> Int? {
        guard body.count >= 8, let count = BoxHeader.u32(body, body.startIndex + 4) else { return nil }
        var at = body.startIndex + 8
        var index = 1
        while index <= count, at <= body.endIndex - 8, let size = BoxHeader.u32(body, at), size >= 8, size <= body.endIndex - at {
            if body[(at + 8)..<(at + size)].elementsEqual(key) { return index }
            at += size
            index += 1
        }
        return nil
    }

    struct Box {
        var rawType: UInt32
        var type: String
        var body: ArraySlice<UInt8>
    }

    /// The boxes laid end to end in `bytes`; stops at the first that does not fit.
    static func children(of bytes: ArraySlice<UInt8>) -> [Box] {
        var boxes: [Box] = []
        var at = bytes.startIndex
        while at <= bytes.endIndex - 8, let header = BoxHeader(bytes, at: at, limit: bytes.endIndex - at) {
            boxes.append(Box(rawType: header.rawType, type: header.type,
                             body: bytes[(at + header.headerSize)..<(at + header.size)]))
            at += header.size
        }
        return boxes
    }
}

/// An ISO-BMFF box header: a 32-bit size (1: a 64-bit size follows; 0: to the end), a type.
struct BoxHeader {
    var size: Int
    var headerSize: Int
    var rawType: UInt32
    var type: String

    /// Nil unless the whole box fits in `limit` bytes from `at`.
    init?(_ bytes: ArraySlice<UInt8>, at: Int, limit: Int) {
        guard let size32 = Self.u32(bytes, at), let rawType = Self.u32(bytes, at + 4) else { return nil }
        var size = size32, headerSize = 8
        if size32 == 1 {
            guard let high = Self.u32(bytes, at + 8), let low = Self.u32(bytes, at + 12), high < 1 << 20 else { return nil }
            size = high << 32 | low
            headerSize = 16
        } else if size32 == 0 {
            size = limit
        }
        guard size >= headerSize, size <= limit else { return nil }
        self.size = size
        self.headerSize = headerSize
        self.rawType = UInt32(rawType)
        type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
    }

    static func u32(_ bytes: ArraySlice<UInt8>, _ at: Int) -> Int? {
        guard at >= bytes.startIndex, at <= bytes.endIndex - 4 else { return nil }
        return Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }
}
