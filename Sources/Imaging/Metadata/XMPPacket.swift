/// The two Dublin Core fields of an XMP packet the overlay shows: dc:title and dc:description.
///
/// Not a general XML parser: XMP writes both as an rdf:Alt of rdf:li items by language, and this
/// reads exactly that shape (the "x-default" item, else the first), plus a plain text value, with
/// XML's character references decoded. Anything else reads as no value.
struct XMPPacket {
    var title: String?
    var description: String?

    /// Longest packet looked at; real ones are a few kilobytes.
    static let maxBytes = 256 << 10

    /// A packet on its own (a JPEG's XMP APP1).
    init?(_ bytes: ArraySlice<UInt8>) {
        let text = String(decoding: bytes.prefix(Self.maxBytes), as: UTF8.self)
        title = Self.value(of: "dc:title", in: text)
        description = Self.value(of: "dc:description", in: text)
        if title == nil && description == nil { return nil }
    }

    /// A packet somewhere in a file (PNG iTXt, a WebP chunk, a HEIF item): between
    /// "<x:xmpmeta" and "</x:xmpmeta>".
    init?(searching bytes: [UInt8]) {
        let open = Array("<x:xmpmeta".utf8), close = Array("</x:xmpmeta>".utf8)
        guard let start = Self.find(open, in: bytes[...]) else { return nil }
        let rest = bytes[start...].prefix(Self.maxBytes)
        let end = Self.find(close, in: rest).map { $0 + close.count } ?? rest.endIndex
        self.init(bytes[start..<end])
    }

    static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var i = haystack.startIndex
        while let hit = haystack[i...].firstIndex(of: first) {
            if haystack[hit...].starts(with: needle) { return hit }
            i = hit + 1
        }
        return nil
    }

    /// The text of element `name`: its x-default (or first) rdf:li, or its own text.
    static func value(of name: String, in xml: String) -> String? {
        guard let open = xml.firstRange(of: "<" + name), let gt = xml[open.upperBound...].firstIndex(of: ">") else { return nil }
        let tagEnd = xml.index(after: gt)
        guard xml[open.upperBound..<gt].last != "/",        // <dc:title/>: empty
              let close = xml[tagEnd...].firstRange(of: "</" + name + ">") else { return nil }
        let body = xml[tagEnd..<close.lowerBound]
        var items: [(attributes: Substring, text: Substring)] = []
        var rest = body[...]
        while let li = rest.firstRange(of: "<rdf:li"), let liGT = rest[li.upperBound...].firstIndex(of: ">") {
            let attributes = rest[li.upperBound..<liGT]
            let textStart = rest.index(after: liGT)
            if attributes.last == "/" { rest = rest[textStart...]; continue }
            guard let liClose = rest[textStart...].firstRange(of: "</rdf:li>") else { break }
            items.append((attributes, rest[textStart..<liClose.lowerBound]))
            rest = rest[liClose.upperBound...]
        }
        let chosen = items.first(where: { $0.attributes.contains("x-default") })?.text ?? items.first?.text
            ?? (body.contains("<") ? nil : body)
        return chosen.flatMap { MetadataText.folded(unescaped($0).unicodeScalars) }
    }

    /// XML's five named entities and numeric character references; CDATA kept as is.
    static func unescaped(_ text: Substring) -> String {
        var text = text
        if text.hasPrefix("<![CDATA["), text.hasSuffix("]]>") { return String(text.dropFirst(9).dropLast(3)) }
        var out = ""
        while let amp = text.firstIndex(of: "&") {
            out += text[..<amp]
            guard let semicolon = text[amp...].prefix(12).firstIndex(of: ";") else {
                out += "&"
                text = text[text.index(after: amp)...]
                continue
            }
            let entity = text[text.index(after: amp)..<semicolon]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let number = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst(), radix: 10) : nil
                if let scalar = number.flatMap(Unicode.Scalar.init) { out.unicodeScalars.append(scalar) } else { out += "&" + entity + ";" }
            }
            text = text[text.index(after: semicolon)...]
        }
        return out + text
    }
}
