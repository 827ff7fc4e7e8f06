/// The request line's target ("/api/photos/a%20b.jpg?page=2") split and percent-decoded here,
/// not by libmicrohttpd: its decoder writes into C strings, so a "%00" cut the path short
/// ("/api/status%00.png" reached the router as "/api/status"). Decoded bytes keep every NUL and
/// control byte for the router to refuse. Pure, so the fuzz target drives the same code.
public enum RequestTarget {
    /// (path bytes, query) of `target`; "+" in the query is a space (form encoding), not in the path.
    public static func parse(_ target: [UInt8]) -> (path: [UInt8], query: [String: String]) {
        let question = target.firstIndex(of: UInt8(ascii: "?"))
        var rawPath = question.map { Array(target[..<$0]) } ?? target
        // An absolute-form target ("http://host/path", RFC 9112 3.2.2) names its path after the authority.
        if let scheme = rawPath.firstRange(of: Array("://".utf8)), !rawPath[..<scheme.lowerBound].contains(UInt8(ascii: "/")) {
            let afterAuthority = rawPath[scheme.upperBound...].firstIndex(of: UInt8(ascii: "/"))
            rawPath = afterAuthority.map { Array(rawPath[$0...]) } ?? Array("/".utf8)
        }
        var query: [String: String] = [:]
        if let question {
            for pair in target[(question + 1)...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
                let equals = pair.firstIndex(of: UInt8(ascii: "="))
                let key = decode(equals.map { pair[..<$0] } ?? pair[...], plusIsSpace: true)
                let value = equals.map { decode(pair[($0 + 1)...], plusIsSpace: true) } ?? []
                // The first value of a repeated key wins, as libmicrohttpd's lookup did.
                let name = String(decoding: key, as: UTF8.self)
                if query[name] == nil { query[name] = String(decoding: value, as: UTF8.self) }
            }
        }
        return (decode(rawPath[...], plusIsSpace: false), query)
    }

    /// Percent-decoding; a "%" not followed by two hex digits stays as it is.
    public static func decode(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%"), bytes.endIndex - i >= 3, let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
                continue
            }
            out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            i += 1
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
