/// Reads a JSON document (RFC 8259) into the TOML tree the config decoder walks: objects become
/// tables (member order kept), numbers without a fraction or exponent integers. That way a
/// settings change from the page is checked by the very code that checks config.toml. No null:
/// no option takes one. Small on purpose: the only JSON read is a settings body of a few hundred
/// bytes, and the project has no JSON library (Foundation is not linked).
public enum JSONReader {
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var offset: Int
        public var message: String
        public var description: String { "not valid JSON at byte \(offset): \(message)" }
    }

    /// The document's top level must be an object.
    public static func table(from bytes: [UInt8]) throws(Failure) -> TOMLTable {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.at == bytes.count else { throw Failure(offset: reader.at, message: "unexpected text after the end") }
        guard case .table(let table) = value.kind else { throw Failure(offset: 0, message: "the body must be an object {...}") }
        return table
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0
        static let maximumDepth = 16

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

        mutating func value(depth: Int) throws(Failure) -> TOMLValue {
            guard depth < Self.maximumDepth else { throw fail("nested too deeply") }
            guard let b = peek else { throw fail("unexpected end") }
            switch b {
            case UInt8(ascii: "{"): return TOMLValue(kind: .table(try object(depth: depth)), line: 1)
            case UInt8(ascii: "["):
                at += 1
                var items: [TOMLValue] = []
                skipSpace()
                if peek == UInt8(ascii: "]") { at += 1; return TOMLValue(kind: .array(items), line: 1) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    if peek == UInt8(ascii: ",") { at += 1; continue }
                    try expect("]")
                    return TOMLValue(kind: .array(items), line: 1)
                }
            case UInt8(ascii: "\""): return TOMLValue(kind: .string(try string()), line: 1)
            case UInt8(ascii: "t"): try expect("true"); return TOMLValue(kind: .boolean(true), line: 1)
            case UInt8(ascii: "f"): try expect("false"); return TOMLValue(kind: .boolean(false), line: 1)
            case UInt8(ascii: "n"): throw fail("null is not a value any setting takes")
            default: return try number()
            }
        }

        mutating func object(depth: Int) throws(Failure) -> TOMLTable {
            at += 1
            let table = TOMLTable(line: 1, explicitlyDefined: true)
            skipSpace()
            if peek == UInt8(ascii: "}") { at += 1; return table }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
                let key = try string()
                guard table[key] == nil else { throw fail("\"\(key)\" appears twice") }
                skipSpace()
                try expect(":")
                skipSpace()
                table.set(key, try value(depth: depth + 1))
                skipSpace()
                if peek == UInt8(ascii: ",") { at += 1; continue }
                try expect("}")
                return table
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

        mutating func number() throws(Failure) -> TOMLValue {
            let start = at
            var isInteger = true
            while let b = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
                    || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") { isInteger = false }
                at += 1
            }
            let text = String(decoding: bytes[start..<at], as: UTF8.self)
            guard !text.isEmpty else { throw fail("unexpected character") }
            if isInteger, let i = Int64(text) { return TOMLValue(kind: .integer(i), line: 1) }
            guard let d = Double(text), d.isFinite else { throw fail("\"\(text)\" is not a number") }
            return TOMLValue(kind: .float(d), line: 1)
        }
    }
}
