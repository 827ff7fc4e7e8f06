/// Reads a JSON document (RFC 8259) into a `JSONValue` (member order kept, numbers without a
/// fraction or exponent integers, a name twice refused), and a settings body from there into the
/// TOML tree the config decoder walks (objects become tables), so that a settings change from the
/// page is checked by the very code that checks config.toml. Small on purpose: the app reads a
/// settings body of a few hundred bytes, the tests read the API's answers and its OpenAPI
/// document, and the project has no JSON library (Foundation is not linked).
public enum JSONReader {
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var offset: Int
        public var message: String
        public var description: String { "not valid JSON at byte \(offset): \(message)" }
    }

    /// The whole document, nested at most `maximumDepth` arrays and objects deep.
    public static func value(from bytes: [UInt8], maximumDepth: Int = 64) throws(Failure) -> JSONValue {
        var reader = Reader(bytes: bytes, maximumDepth: maximumDepth)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.at == bytes.count else { throw Failure(offset: reader.at, message: "unexpected text after the end") }
        return value
    }

    /// A settings body: its top level must be an object, and no null (no option takes one).
    public static func table(from bytes: [UInt8]) throws(Failure) -> TOMLTable {
        guard case .object(let members) = try value(from: bytes, maximumDepth: 16) else {
            throw Failure(offset: 0, message: "the body must be an object {...}")
        }
        return try table(members)
    }

    private static func table(_ members: [(String, JSONValue)]) throws(Failure) -> TOMLTable {
        let table = TOMLTable(line: 1, explicitlyDefined: true)
        for (key, member) in members { table.set(key, try tomlValue(member, key: key)) }
        return table
    }

    private static func tomlValue(_ value: JSONValue, key: String) throws(Failure) -> TOMLValue {
        let kind: TOMLValue.Kind
        switch value {
        case .object(let members): kind = .table(try table(members))
        case .array(let items):
            var values: [TOMLValue] = []
            for item in items { values.append(try tomlValue(item, key: key)) }
            kind = .array(values)
        case .string(let s): kind = .string(s)
        case .integer(let i): kind = .integer(i)
        case .number(let d): kind = .float(d)
        case .bool(let b): kind = .boolean(b)
        case .null: throw Failure(offset: 0, message: "\"\(key)\": null is not a value any setting takes")
        }
        return TOMLValue(kind: kind, line: 1)
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0
        let maximumDepth: Int

        func fail(_ message: String) -> Failure { Failure(offset: at, message: message) }
        var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

        mutating func skipSpace() {
            while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { at += 1 }
        }

        mutating func expect(_ literal: String) throws(Failure) {
            let want = Array(literal.utf8)
            guard at + want.count <= bytes.count, Array(bytes[at..<at + want.count]) == want else { throw fail("expected \(literal)") }
            at += want.count
        }

        mutating func value(depth: Int) throws(Failure) -> JSONValue {
            guard depth < maximumDepth else { throw fail("nested too deeply") }
            guard let b = peek else { throw fail("unexpected end") }
            switch b {
            case UInt8(ascii: "{"): return .object(try object(depth: depth))
            case UInt8(ascii: "["):
                at += 1
                var items: [JSONValue] = []
                skipSpace()
                if peek == UInt8(ascii: "]") { at += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    if peek == UInt8(ascii: ",") { at += 1; continue }
                    try expect("]")
                    return .array(items)
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"): try expect("null"); return .null
            default: return try number()
            }
        }

        mutating func object(depth: Int) throws(Failure) -> [(String, JSONValue)] {
            at += 1
            var members: [(String, JSONValue)] = []
            var names: Set<String> = []
            skipSpace()
            if peek == UInt8(ascii: "}") { at += 1; return members }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
                let key = try string()
                guard names.insert(key).inserted else { throw fail("\"\(key)\" appears twice") }
                skipSpace()
                try expect(":")
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                if peek == UInt8(ascii: ",") { at += 1; continue }
                try expect("}")
                return members
            }
        }

        mutating func string() throws(Failure) -> String {
            at += 1
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []   // plain UTF-8 bytes since the last escape
            func flush() { scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars); run = [] }
            while let b = peek {
                at += 1
                switch b {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard let e = peek else { break }
                    at += 1
                    switch e {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code) {
                            try expect("\\u")
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw fail("a lone surrogate") }
                        scalars.append(scalar)
                    default: throw fail("unknown escape")
                    }
                case 0..<0x20: throw fail("a control character in a string")
                default: run.append(b)
                }
            }
            throw fail("unterminated string")
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            guard at + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16) else {
                throw fail("\\u needs four hex digits")
            }
            at += 4
            return code
        }

        mutating func number() throws(Failure) -> JSONValue {
            let start = at
            var isInteger = true
            while let b = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
                    || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") { isInteger = false }
                at += 1
            }
            let text = String(decoding: bytes[start..<at], as: UTF8.self)
            guard !text.isEmpty else { throw fail("unexpected character") }
            if isInteger, let i = Int64(text) { return .integer(i) }
            guard let d = Double(text), d.isFinite else { throw fail("\"\(text)\" is not a number") }
            return .number(d)
        }
    }
}
