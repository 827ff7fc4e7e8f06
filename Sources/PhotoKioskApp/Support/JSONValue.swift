/// JSON text for the small messages the kiosk writes (MQTT discovery and state, the remote API's
/// answers): keys keep the order given, strings are escaped as RFC 8259 asks, and also DEL,
/// U+2028 and U+2029, so the text is safe inside a page's script too. Written here rather than
/// with Foundation's encoder, which the binary does not otherwise link (megabytes on a small
/// board for this).
public indirect enum JSONValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public var text: String {
        switch self {
        case .string(let s): return Self.quoted(s)
        case .integer(let n): return String(n)
        case .number(let x): return x.isFinite ? String(x) : "null"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { Self.quoted($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    public var bytes: [UInt8] { Array(text.utf8) }

    static func quoted(_ s: String) -> String {
        var out = "\""
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
        return out + "\""
    }

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.text == b.text }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}
