import Glibc
import Graphics
import SystemAccess
import SystemPackage

extension KioskConfig {
    /// Reads and parses a config file. A missing file at the default path is not an error (the
    /// defaults apply); a missing file the user named with --config is.
    public static func load(path: String, mustExist: Bool) throws(ConfigError) -> KioskConfig {
        let bytes: [UInt8]
        do {
            bytes = try FileSystemCalls.contents(of: FilePath(path), limit: 16 << 20)
        } catch {
            if !mustExist && error.errno == .noSuchFileOrDirectory { return KioskConfig() }
            throw ConfigError(kind: .unreadable, file: path, line: nil, key: nil, message: "cannot read: \(error.errno)")
        }
        return try parse(String(decoding: bytes, as: UTF8.self), file: path)
    }

    /// Parses TOML text; `file` only names the source in error messages. Every mistake is
    /// reported, not only the first: the error thrown is the first by line and carries the
    /// others in `laterMistakes`, in line order.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> KioskConfig {
        let (root, syntaxErrors) = parseSkippingBadLines(text, file: file)
        let decoder = ConfigDecoder(file: file)
        var config = decoder.decode(root)
        config.normalize()
        var mistakes = syntaxErrors + decoder.problems
        for problem in config.problems() where !mistakes.contains(where: { $0.key == problem.key }) {
            mistakes.append(ConfigError(kind: .invalidValue, file: file, line: decoder.lines[problem.key],
                                        key: problem.key, message: problem.message))
        }
        if let error = ConfigError(collecting: mistakes) { throw error }
        return config
    }

    /// A TOML syntax error stops the parser; to find the mistakes after it, the offending line is
    /// blanked and the text parsed again (a bounded number of times), so later lines still count.
    static func parseSkippingBadLines(_ text: String, file: String) -> (TOMLTable, [ConfigError]) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var errors: [ConfigError] = []
        while errors.count < 50 {
            do {
                return (try TOMLParser.parse(lines.joined(separator: "\n")), errors)
            } catch {
                errors.append(ConfigError(kind: .syntax, file: file, line: error.line, key: nil,
                                          message: "\(error.message) (column \(error.column))"))
                guard error.line >= 1, error.line <= lines.count, !lines[error.line - 1].isEmpty else { break }
                lines[error.line - 1] = ""
            }
        }
        return (TOMLTable(line: 1, explicitlyDefined: true), errors)
    }
}

/// Reads the parsed table into a config, walking it in document order. A mistake in one option
/// is kept in `problems` and decoding goes on with the next, so one run reports every mistake.
final class ConfigDecoder {
    let file: String
    /// Line of each option that was set, for range errors found after decoding.
    var lines: [String: Int] = [:]
    var problems: [ConfigError] = []

    init(file: String) { self.file = file }

    /// Runs `decode` for each option of the table `v` (named `table`); a mistake in one option
    /// is kept and the next option is read.
    func options(of v: TOMLValue, in table: String, _ decode: (TOMLTable.Entry, String) throws(ConfigError) -> Void) {
        let entries: [TOMLTable.Entry]
        do throws(ConfigError) { entries = try self.table(v, table).entries } catch { problems.append(error); return }
        for e in entries {
            do throws(ConfigError) { try decode(e, table + "." + e.key) } catch { problems.append(error) }
        }
    }

    /// `base` is what options not in `root` keep: the defaults for a config file, the running
    /// configuration for the phone page's settings (`KioskSettings`). Each option is read by its
    /// setter in `KioskConfig.schema`; a name the schema does not know is reported with a
    /// suggestion.
    func decode(_ root: TOMLTable, onto base: KioskConfig = KioskConfig()) -> KioskConfig {
        var c = base
        for e in root.entries {
            // A top-level list of tables (`[[source]]`) is read whole by its setter.
            let isTableList = KioskConfig.tableLists.contains { $0.key == e.key }
            if !isTableList, KioskConfig.knownKeys[""]!.contains(e.key), KioskConfig.knownKeys[e.key] != nil {
                options(of: e.value, in: e.key) { option, key throws(ConfigError) in
                    try read(option, key, in: e.key, into: &c)
                }
            } else {
                do throws(ConfigError) { try read(e, e.key, in: "", into: &c) } catch { problems.append(error) }
            }
        }
        return c
    }

    private func read(_ e: TOMLTable.Entry, _ key: String, in table: String, into c: inout KioskConfig) throws(ConfigError) {
        guard let set = KioskConfig.setters[key] else { throw unknown(e, in: table) }
        try set(self, e.value, key, &c)
    }

    func periods(_ v: TOMLValue, _ key: String) throws(ConfigError) -> [SchedulePeriod] {
        guard case .array(let items) = v.kind else {
            throw wrongType(v, key, "a list of [[schedule.period]] tables")
        }
        var result: [SchedulePeriod] = []
        for item in items {
            guard case .table(let t) = item.kind else {
                throw wrongType(item, key, "a list of [[schedule.period]] tables")
            }
            var days = Set(Weekday.allCases)
            var off: TimeOfDay?, on: TimeOfDay?
            for e in t.entries {
                let key = "schedule.period." + e.key
                do throws(ConfigError) {
                switch e.key {
                case "days":
                    days = []
                    for name in try strings(e.value, key) {
                        switch SchedulePeriod.parseDays(name) {
                        case .success(let d): days.formUnion(d)
                        case .failure(let p): throw invalid(e.value, key, p.message)
                        }
                    }
                    if days.isEmpty { throw invalid(e.value, key, "needs at least one day, e.g. [\"mon\", \"tue\"] or [\"mon-fri\"]") }
                case "off", "on":
                    let text = try string(e.value, key)
                    guard let time = TimeOfDay(parsing: text) else {
                        throw invalid(e.value, key, "\"\(text)\" is not a time like \"07:00\" (00:00 to 23:59)")
                    }
                    if e.key == "off" { off = time } else { on = time }
                default: throw unknown(e, in: "schedule.period")
                }
                } catch { problems.append(error) }  // the period's other mistakes are reported too
            }
            // A time that is there but wrong was reported above; only a missing one is reported here.
            for name in ["off", "on"] where !t.entries.contains(where: { $0.key == name }) {
                problems.append(ConfigError(kind: .missingKey, file: file, line: t.line, key: "schedule.period.\(name)",
                                  message: "each [[schedule.period]] needs both off = \"HH:MM\" and on = \"HH:MM\""))
            }
            guard let off, let on else { continue }
            guard off != on else {
                throw ConfigError(kind: .invalidValue, file: file, line: t.line, key: "schedule.period",
                                  message: "off and on are both \(off): the period would be empty")
            }
            result.append(SchedulePeriod(days: days, off: off, on: on))
        }
        return result
    }

    // MARK: Typed reads

    func record(_ v: TOMLValue, _ key: String) { lines[key] = v.line }

    func string(_ v: TOMLValue, _ key: String) throws(ConfigError) -> String {
        guard case .string(let s) = v.kind else { throw wrongType(v, key, "a string in quotes") }
        record(v, key)
        return s
    }

    func bool(_ v: TOMLValue, _ key: String) throws(ConfigError) -> Bool {
        guard case .boolean(let b) = v.kind else { throw wrongType(v, key, "true or false") }
        record(v, key)
        return b
    }

    func integer(_ v: TOMLValue, _ key: String) throws(ConfigError) -> Int {
        guard case .integer(let i) = v.kind else { throw wrongType(v, key, "a whole number") }
        record(v, key)
        return Int(i)
    }

    func number(_ v: TOMLValue, _ key: String) throws(ConfigError) -> Double {
        record(v, key)
        switch v.kind {
        case .integer(let i): return Double(i)
        case .float(let d) where d.isFinite: return d
        case .float: throw invalid(v, key, "must be a finite number")
        default: throw wrongType(v, key, "a number")
        }
    }

    func choice<E: RawRepresentable & CaseIterable>(_ v: TOMLValue, _ key: String) throws(ConfigError) -> E
    where E.RawValue == String {
        let names = E.allCases.map(\.rawValue)
        let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
        guard case .string(let s) = v.kind else { throw wrongType(v, key, "one of \(list)") }
        record(v, key)
        guard let value = E(rawValue: s) else {
            var message = "\"\(s)\" is not one of \(list)"
            if let near = closestMatch(to: s, in: names) { message += "; did you mean \"\(near)\"?" }
            throw invalid(v, key, message)
        }
        return value
    }

    func strings(_ v: TOMLValue, _ key: String) throws(ConfigError) -> [String] {
        try list(v, key, "a list of strings, e.g. [\"a\", \"b\"]") { if case .string(let s) = $0 { s } else { nil } }
    }

    func numbers(_ v: TOMLValue, _ key: String) throws(ConfigError) -> [Double] {
        try list(v, key, "a list of numbers") { kind in
            switch kind {
            case .integer(let i): Double(i)
            case .float(let d) where d.isFinite: d
            default: nil
            }
        }
    }

    /// An array whose items `element` reads; an item it cannot read is a wrong type, named as
    /// `expected` (the whole list's description).
    private func list<T>(_ v: TOMLValue, _ key: String, _ expected: String,
                         _ element: (TOMLValue.Kind) -> T?) throws(ConfigError) -> [T] {
        guard case .array(let items) = v.kind else { throw wrongType(v, key, expected) }
        record(v, key)
        var result: [T] = []
        for item in items {
            guard let value = element(item.kind) else { throw wrongType(item, key, expected) }
            result.append(value)
        }
        return result
    }

    func table(_ v: TOMLValue, _ key: String) throws(ConfigError) -> TOMLTable {
        guard case .table(let t) = v.kind else { throw wrongType(v, key, "a table: write [\(key)] on its own line") }
        return t
    }

    // MARK: Errors

    func wrongType(_ v: TOMLValue, _ key: String, _ expected: String) -> ConfigError {
        ConfigError(kind: .wrongType, file: file, line: v.line, key: key,
                    message: "must be \(expected), not \(v.typeDescription)")
    }

    func invalid(_ v: TOMLValue, _ key: String, _ message: String) -> ConfigError {
        ConfigError(kind: .invalidValue, file: file, line: v.line, key: key, message: message)
    }

    func unknown(_ e: TOMLTable.Entry, in table: String) -> ConfigError {
        let key = table.isEmpty ? e.key : table + "." + e.key
        let known = KioskConfig.knownKeys[table] ?? []
        var suggestion = closestMatch(to: e.key, in: known).map { table.isEmpty ? $0 : table + "." + $0 }
        if suggestion == nil {
            // The right name in the wrong table, e.g. `rotation` above [display].
            for other in KioskConfig.knownKeys.keys.sorted()
            where other != table && KioskConfig.knownKeys[other]!.contains(e.key) {
                suggestion = other.isEmpty ? e.key : other + "." + e.key
                break
            }
        }
        var message = "unknown option"
        if let suggestion { message += "; did you mean \(suggestion)?" }
        if table.isEmpty, suggestion == nil {
            message += " (known: " + known.joined(separator: ", ") + ")"
        }
        return ConfigError(kind: .unknownKey(suggestion: suggestion), file: file, line: e.value.line,
                           key: key, message: message)
    }
}
