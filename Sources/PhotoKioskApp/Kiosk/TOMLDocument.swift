// The parsed form of a TOML configuration file. Every key and value remembers the line it was
// written on, so a config error can name the exact line even after parsing succeeded (a wrong type,
// an out-of-range number). That is why this small parser exists instead of a TOML library: the
// libraries at hand only report positions for syntax errors.

/// One value with the 1-based line it starts on.
public struct TOMLValue {
    public enum Kind {
        case string(String)
        case integer(Int64)
        case float(Double)
        case boolean(Bool)
        case array([TOMLValue])
        case table(TOMLTable)
    }

    public var kind: Kind
    public var line: Int

    /// The TOML type name used in error messages ("a string", "an integer", ...).
    public var typeDescription: String {
        switch kind {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a number with a fraction"
        case .boolean: "true or false"
        case .array: "an array"
        case .table: "a table"
        }
    }
}

/// A table: its keys in the order they were written, each with the line of its key.
/// A class because `[a.b]` headers and dotted keys reopen and extend tables while parsing.
public final class TOMLTable {
    public struct Entry {
        public var key: String
        public var value: TOMLValue
    }

    public private(set) var entries: [Entry] = []
    /// Line of the header (`[name]`) or of the first key that created this table implicitly.
    public let line: Int
    /// Tables created implicitly by `[a.b]` may still be defined by a later `[a]` header once.
    var isExplicitlyDefined: Bool
    /// Tables that are values of an inline table or a key can not be extended later.
    var isSealed = false
    private var index: [String: Int] = [:]

    init(line: Int, explicitlyDefined: Bool) {
        self.line = line
        self.isExplicitlyDefined = explicitlyDefined
    }

    public subscript(key: String) -> TOMLValue? {
        index[key].map { entries[$0].value }
    }

    func set(_ key: String, _ value: TOMLValue) {
        if let i = index[key] {
            entries[i].value = value
        } else {
            index[key] = entries.count
            entries.append(Entry(key: key, value: value))
        }
    }
}

/// A TOML syntax error with the 1-based line and column where it was found.
public struct TOMLSyntaxError: Error, Equatable, Sendable {
    public var line: Int
    public var column: Int
    public var message: String
}
