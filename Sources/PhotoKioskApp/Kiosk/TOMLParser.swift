// A TOML parser for configuration files: tables, arrays of tables, dotted and quoted keys,
// basic and literal strings, integers, floats, booleans, arrays and inline tables.
// Not supported (a clear error instead): multi-line strings and dates/times, which a kiosk
// configuration has no use for (times of day are written as strings, "07:00").

public enum TOMLParser {
    public static func parse(_ text: String) throws(TOMLSyntaxError) -> TOMLTable {
        var parser = Parser(bytes: Array(text.utf8))
        return try parser.parseDocument()
    }
}

private struct Parser {
    let bytes: [UInt8]
    var pos = 0
    var line = 1
    var lineStart = 0
    let root = TOMLTable(line: 1, explicitlyDefined: true)
    /// Keys (per parent table) holding arrays made by `[[...]]`, which later headers extend.
    var tableArrayKeys: [ObjectIdentifier: Set<String>] = [:]

    init(bytes: [UInt8]) { self.bytes = bytes }

    // MARK: Errors and cursor

    func error(_ message: String) -> TOMLSyntaxError {
        TOMLSyntaxError(line: line, column: pos - lineStart + 1, message: message)
    }

    var atEnd: Bool { pos >= bytes.count }
    var peek: UInt8? { pos < bytes.count ? bytes[pos] : nil }

    mutating func skipSpaces() {
        while let c = peek, c == 0x20 || c == 0x09 { pos += 1 }
    }

    mutating func skipComment() throws(TOMLSyntaxError) {
        guard peek == UInt8(ascii: "#") else { return }
        while let c = peek, c != 0x0A {
            if c < 0x20 && c != 0x09 && c != 0x0D { throw error("control character in a comment") }
            pos += 1
        }
    }

    /// After a value or header: only spaces, a comment and the end of the line may follow.
    mutating func expectEndOfLine() throws(TOMLSyntaxError) {
        skipSpaces()
        try skipComment()
        if atEnd { return }
        if peek == 0x0D, pos + 1 < bytes.count, bytes[pos + 1] == 0x0A { pos += 1 }
        guard peek == 0x0A else {
            throw error("expected the end of the line, found '\(describe(peek))'")
        }
        newline()
    }

    mutating func newline() {
        pos += 1
        line += 1
        lineStart = pos
    }

    /// Spaces, comments and newlines, as allowed between array elements.
    mutating func skipWhitespaceAndComments() throws(TOMLSyntaxError) {
        while true {
            skipSpaces()
            try skipComment()
            if peek == 0x0D, pos + 1 < bytes.count, bytes[pos + 1] == 0x0A { pos += 1 }
            if peek == 0x0A { newline() } else { return }
        }
    }

    func describe(_ c: UInt8?) -> String {
        guard let c else { return "end of file" }
        if c >= 0x21 && c < 0x7F { return String(UnicodeScalar(c)) }
        return c == 0x20 ? "space" : "character \(c)"
    }

    // MARK: Document

    mutating func parseDocument() throws(TOMLSyntaxError) -> TOMLTable {
        // Editors on other systems may save a byte-order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            pos = 3
            lineStart = 3
        }
        var current = root
        while true {
            try skipWhitespaceAndComments()
            guard let c = peek else { return root }
            if c == UInt8(ascii: "[") {
                current = try parseHeader()
            } else {
                try parseKeyValue(into: current)
                try expectEndOfLine()
            }
        }
    }

    mutating func parseHeader() throws(TOMLSyntaxError) -> TOMLTable {
        let headerLine = line
        pos += 1
        let isArray = peek == UInt8(ascii: "[")
        if isArray { pos += 1 }
        skipSpaces()
        let path = try parseKey()
        skipSpaces()
        guard peek == UInt8(ascii: "]") else { throw error("expected ']' to close the table header") }
        pos += 1
        if isArray {
            guard peek == UInt8(ascii: "]") else { throw error("expected ']]' to close the array-of-tables header") }
            pos += 1
        }
        try expectEndOfLine()

        var table = root
        for key in path.dropLast() {
            table = try descend(table, key, line: headerLine)
        }
        let last = path[path.count - 1]
        if isArray {
            let element = TOMLTable(line: headerLine, explicitlyDefined: true)
            if let existing = table[last] {
                guard case .array(var items) = existing.kind,
                      tableArrayKeys[ObjectIdentifier(table), default: []].contains(last) else {
                    throw TOMLSyntaxError(line: headerLine, column: 1,
                                          message: "'\(path.joined(separator: "."))' is already defined as a value")
                }
                items.append(TOMLValue(kind: .table(element), line: headerLine))
                table.set(last, TOMLValue(kind: .array(items), line: existing.line))
            } else {
                tableArrayKeys[ObjectIdentifier(table), default: []].insert(last)
                table.set(last, TOMLValue(kind: .array([TOMLValue(kind: .table(element), line: headerLine)]),
                                          line: headerLine))
            }
            return element
        }
        if let existing = table[last] {
            guard case .table(let t) = existing.kind, !t.isSealed, !t.isExplicitlyDefined else {
                throw TOMLSyntaxError(line: headerLine, column: 1,
                                      message: "table '\(path.joined(separator: "."))' is defined twice")
            }
            t.isExplicitlyDefined = true
            return t
        }
        let t = TOMLTable(line: headerLine, explicitlyDefined: true)
        table.set(last, TOMLValue(kind: .table(t), line: headerLine))
        return t
    }

    /// The sub-table `key` of `table`, created implicitly if missing; for an array of tables, its
    /// last element (so `[fruit.variety]` after `[[fruit]]` extends the latest fruit).
    mutating func descend(_ table: TOMLTable, _ key: String, line: Int) throws(TOMLSyntaxError) -> TOMLTable {
        if let existing = table[key] {
            switch existing.kind {
            case .table(let t) where !t.isSealed:
                return t
            case .array(let items) where tableArrayKeys[ObjectIdentifier(table), default: []].contains(key):
                if case .table(let t)? = items.last?.kind { return t }
            default:
                break
            }
            throw TOMLSyntaxError(line: line, column: 1, message: "'\(key)' is already defined as a value")
        }
        let t = TOMLTable(line: line, explicitlyDefined: false)
        table.set(key, TOMLValue(kind: .table(t), line: line))
        return t
    }

    // MARK: Keys and values

    mutating func parseKeyValue(into table: TOMLTable) throws(TOMLSyntaxError) {
        let keyLine = line
        let path = try parseKey()
        skipSpaces()
        guard peek == UInt8(ascii: "=") else {
            throw error("expected '=' after the key '\(path.joined(separator: "."))'")
        }
        pos += 1
        skipSpaces()
        let value = try parseValue()
        var target = table
        for key in path.dropLast() {
            target = try descend(target, key, line: keyLine)
        }
        let last = path[path.count - 1]
        if target[last] != nil {
            throw TOMLSyntaxError(line: keyLine, column: 1,
                                  message: "the key '\(path.joined(separator: "."))' is defined twice")
        }
        target.set(last, TOMLValue(kind: value.kind, line: keyLine))
    }

    /// A dotted key: `a`, `a.b`, `"quoted key".c`.
    mutating func parseKey() throws(TOMLSyntaxError) -> [String] {
        var parts: [String] = []
        while true {
            skipSpaces()
            guard let c = peek else { throw error("expected a key") }
            if c == UInt8(ascii: "\"") {
                parts.append(try parseBasicString())
            } else if c == UInt8(ascii: "'") {
                parts.append(try parseLiteralString())
            } else {
                let start = pos
                while let c = peek, isBareKeyChar(c) { pos += 1 }
                guard pos > start else { throw error("expected a key, found '\(describe(peek))'") }
                parts.append(String(decoding: bytes[start..<pos], as: UTF8.self))
            }
            skipSpaces()
            if peek == UInt8(ascii: ".") { pos += 1 } else { return parts }
        }
    }

    func isBareKeyChar(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39)
            || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
    }

    mutating func parseValue() throws(TOMLSyntaxError) -> TOMLValue {
        let valueLine = line
        guard let c = peek else { throw error("expected a value after '='") }
        switch c {
        case UInt8(ascii: "\""):
            if startsWith("\"\"\"") { throw error("multi-line strings are not supported here") }
            return TOMLValue(kind: .string(try parseBasicString()), line: valueLine)
        case UInt8(ascii: "'"):
            if startsWith("'''") { throw error("multi-line strings are not supported here") }
            return TOMLValue(kind: .string(try parseLiteralString()), line: valueLine)
        case UInt8(ascii: "["):
            return TOMLValue(kind: .array(try parseArray()), line: valueLine)
        case UInt8(ascii: "{"):
            return TOMLValue(kind: .table(try parseInlineTable()), line: valueLine)
        default:
            return TOMLValue(kind: try parseScalar(), line: valueLine)
        }
    }

    func startsWith(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return pos + u.count <= bytes.count && Array(bytes[pos..<pos + u.count]) == u
    }

    mutating func parseArray() throws(TOMLSyntaxError) -> [TOMLValue] {
        pos += 1
        var items: [TOMLValue] = []
        while true {
            try skipWhitespaceAndComments()
            if peek == UInt8(ascii: "]") { pos += 1; return items }
            if atEnd { throw error("the array is not closed with ']'") }
            items.append(try parseValue())
            try skipWhitespaceAndComments()
            if peek == UInt8(ascii: ",") { pos += 1; continue }
            if peek == UInt8(ascii: "]") { pos += 1; return items }
            throw error("expected ',' or ']' in the array, found '\(describe(peek))'")
        }
    }

    mutating func parseInlineTable() throws(TOMLSyntaxError) -> TOMLTable {
        let table = TOMLTable(line: line, explicitlyDefined: true)
        pos += 1
        skipSpaces()
        if peek == UInt8(ascii: "}") { pos += 1; table.isSealed = true; return table }
        while true {
            skipSpaces()
            try parseKeyValue(into: table)
            skipSpaces()
            if peek == UInt8(ascii: ",") { pos += 1; continue }
            if peek == UInt8(ascii: "}") { pos += 1; table.isSealed = true; return table }
            throw error("expected ',' or '}' in the inline table, found '\(describe(peek))'")
        }
    }

    mutating func parseScalar() throws(TOMLSyntaxError) -> TOMLValue.Kind {
        let start = pos
        let startColumn = pos - lineStart + 1
        while let c = peek, !(c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ",")
                              || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") || c == UInt8(ascii: "#")) {
            pos += 1
        }
        let word = String(decoding: bytes[start..<pos], as: UTF8.self)
        let fail = TOMLSyntaxError(line: line, column: startColumn,
                                   message: word.isEmpty ? "expected a value" : "'\(word)' is not a valid value (strings need quotes)")
        switch word {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        if word.contains(":") || (word.count >= 10 && word.dropFirst(4).first == "-") {
            throw TOMLSyntaxError(line: line, column: startColumn,
                                  message: "dates and times must be written as strings here, e.g. \"\(word)\"")
        }
        guard let integerOrFloat = Self.number(word) else { throw fail }
        return integerOrFloat
    }

    static func number(_ word: String) -> TOMLValue.Kind? {
        // Underscores only between digits.
        let chars = Array(word)
        for (i, ch) in chars.enumerated() where ch == "_" {
            guard i > 0, i + 1 < chars.count, chars[i - 1].isHexDigit, chars[i + 1].isHexDigit else { return nil }
        }
        let plain = word.replacingUnderscores()
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where plain.hasPrefix(prefix) {
            return Int64(plain.dropFirst(2), radix: radix).map { .integer($0) }
        }
        var digits = Substring(plain)
        if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
        guard let first = digits.first, first.isNumber else { return nil }
        // No leading zeros on integers or on the integer part of a float.
        if first == "0", digits.count > 1, let second = digits.dropFirst().first, second.isNumber { return nil }
        if digits.allSatisfy({ $0.isNumber }) {
            return Int64(plain).map { .integer($0) }
        }
        // Decimal floats only (Swift's Double(_:) would also take hex floats).
        guard plain.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }) else { return nil }
        // A float needs digits on both sides of the dot.
        if let dot = plain.firstIndex(of: ".") {
            let before = plain[..<dot].last, after = plain[plain.index(after: dot)...].first
            guard before?.isNumber == true, after?.isNumber == true else { return nil }
        }
        return Double(plain).map { .float($0) }
    }

    // MARK: Strings

    mutating func parseLiteralString() throws(TOMLSyntaxError) -> String {
        pos += 1
        let start = pos
        while let c = peek, c != UInt8(ascii: "'") {
            if c == 0x0A { throw error("the string is not closed before the end of the line") }
            pos += 1
        }
        guard !atEnd else { throw error("the string is not closed before the end of the file") }
        let s = String(decoding: bytes[start..<pos], as: UTF8.self)
        pos += 1
        return s
    }

    mutating func parseBasicString() throws(TOMLSyntaxError) -> String {
        pos += 1
        var out: [UInt8] = []
        while true {
            guard let c = peek else { throw error("the string is not closed before the end of the file") }
            if c == 0x0A { throw error("the string is not closed before the end of the line") }
            pos += 1
            if c == UInt8(ascii: "\"") { break }
            guard c == UInt8(ascii: "\\") else {
                if c < 0x20 && c != 0x09 { throw error("control character in a string") }
                out.append(c)
                continue
            }
            guard let e = peek else { throw error("the string is not closed before the end of the file") }
            pos += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "e"): out.append(0x1B)
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                let count = e == UInt8(ascii: "u") ? 4 : 8
                guard pos + count <= bytes.count,
                      let code = UInt32(String(decoding: bytes[pos..<pos + count], as: UTF8.self), radix: 16),
                      let scalar = UnicodeScalar(code) else {
                    throw error("invalid unicode escape in a string")
                }
                pos += count
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                pos -= 1
                throw error("invalid escape '\\\(describe(e))' in a string (write '\\\\' for a backslash)")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

private extension String {
    func replacingUnderscores() -> String { String(filter { $0 != "_" }) }
}
