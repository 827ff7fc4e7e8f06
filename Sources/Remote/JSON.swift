/// The few JSON values the API sends, written without Foundation. Names that are not UTF-8
/// are shown with U+FFFD here; their exact bytes travel percent-encoded in URLs.
public enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case number(Double)
    case string(String)
    case array([JSON])
    /// Keys in the order given (stable output for tests and diffs).
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool { a.text == b.text }

    public var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    public var bytes: [UInt8] { Array(text.utf8) }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let d): out += d.isFinite ? String(d) : "null"
        case .string(let s): Self.writeString(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                Self.writeString(key, into: &out)
                out += ":"
                value.write(into: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}" || scalar == "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension String {
    /// Bytes shown as text: invalid UTF-8 becomes U+FFFD (for display only).
    init(lossyBytes bytes: [UInt8]) { self = String(decoding: bytes, as: UTF8.self) }
}

/// Percent-encoding of raw bytes for a URL path segment (RFC 3986 unreserved kept).
func percentEncoded(_ bytes: [UInt8]) -> String {
    let unreserved = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8))
    let digits = Array("0123456789ABCDEF")
    var out = ""
    for byte in bytes {
        if unreserved.contains(byte) {
            out.unicodeScalars.append(Unicode.Scalar(byte))
        } else {
            out += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
        }
    }
    return out
}
