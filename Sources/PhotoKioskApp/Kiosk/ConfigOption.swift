/// One option of config.toml: its key, the type it is read as, its range, its default, its
/// documentation, its command-line flag and the setter that puts it into a `KioskConfig`.
/// `KioskConfig.schema` lists every option once; the parser (`ConfigDecoder`), the known keys
/// behind "did you mean", the flag names in error messages (`KioskConfigOverrides.flagNames`),
/// the range checks (`KioskConfig.problems()`) and docs/configuration.md are all read from it,
/// so a new option is one row.
public struct ConfigOption: Sendable {
    /// Reads the TOML value of option `key` into the config (through the decoder's typed reads,
    /// which word the mistakes and remember the line).
    typealias Setter = @Sendable (ConfigDecoder, TOMLValue, _ key: String, inout KioskConfig) throws(ConfigError) -> Void
    /// Why the config's value of this option is not allowed (out of range, or wrong together
    /// with another option), or nil.
    typealias Check = @Sendable (KioskConfig) -> String?

    /// "table.option" as the parser names it ("log_level" for the top level).
    public let key: String
    /// What may be written, e.g. "seconds, 1 to 86400".
    public let values: String
    /// The default as TOML text the parser reads back to `KioskConfig()`; nil when the default
    /// is not a fixed value (`defaultNote` says what it is).
    public let defaultValue: String?
    public let defaultNote: String?
    /// A valid value other than the default, as TOML text: the tests parse it and expect the
    /// config to change, which proves the setter reads the option.
    public let example: String
    public let summary: String
    /// The command-line flag; nil for a period's keys, which share their list's `--schedule`.
    let ownFlag: String?
    /// nil for a period's keys: `ConfigDecoder.periods` reads a period as a whole.
    let set: Setter?
    let check: Check?

    init(_ key: String, values: String, flag: String?, default defaultValue: String?, note defaultNote: String? = nil,
         example: String, _ summary: String, set: Setter?, check: Check? = nil) {
        self.key = key
        self.values = values
        self.ownFlag = flag
        self.defaultValue = defaultValue
        self.defaultNote = defaultNote
        self.example = example
        self.summary = summary
        self.set = set
        self.check = check
    }

    /// The command-line flag that overrides it (the names the error messages use); a period's
    /// keys share `--schedule`.
    public var flag: String? {
        KioskConfigOverrides.flagNames[key] ?? KioskConfigOverrides.flagNames[table]
    }

    /// The table it sits in ("" for the top level).
    public var table: String {
        guard let dot = key.lastIndex(of: ".") else { return "" }
        return String(key[..<dot])
    }

    /// The option's own name.
    public var name: String {
        guard let dot = key.lastIndex(of: ".") else { return key }
        return String(key[key.index(after: dot)...])
    }
}

// MARK: Rows by type

extension ConfigOption {
    /// One of an enumeration's names; the documented values come straight from its cases, so a
    /// new case is documented by itself.
    static func choice<E: CaseIterable & RawRepresentable & Sendable>(
        _ key: String, _ path: WritableKeyPath<KioskConfig, E> & Sendable, flag: String,
        default defaultValue: String, example: String, _ summary: String
    ) -> ConfigOption where E.RawValue == String {
        ConfigOption(key, values: E.allCases.map { "`\"\($0.rawValue)\"`" }.joined(separator: ", "), flag: flag,
                     default: defaultValue, example: example, summary,
                     set: { d, v, key, c throws(ConfigError) in c[keyPath: path] = try d.choice(v, key) })
    }

    static func bool(_ key: String, _ path: WritableKeyPath<KioskConfig, Bool> & Sendable, flag: String,
                     default defaultValue: String, example: String, _ summary: String) -> ConfigOption {
        ConfigOption(key, values: "`true` or `false`", flag: flag, default: defaultValue, example: example, summary,
                     set: { d, v, key, c throws(ConfigError) in c[keyPath: path] = try d.bool(v, key) })
    }

    /// A whole number within `range`, in `unit`; `remark` follows the range in the error.
    static func wholeNumber(_ key: String, _ path: WritableKeyPath<KioskConfig, Int> & Sendable,
                            _ range: ClosedRange<Int>, _ unit: String, remark: String? = nil, flag: String,
                            default defaultValue: String?, note: String? = nil, example: String,
                            _ summary: String) -> ConfigOption {
        ConfigOption(key, values: "\(unit), \(range.lowerBound) to \(range.upperBound)", flag: flag,
                     default: defaultValue, note: note, example: example, summary,
                     set: { d, v, key, c throws(ConfigError) in c[keyPath: path] = try d.integer(v, key) },
                     check: { c in outOfRange(c[keyPath: path], range, unit, remark) })
    }

    /// Any finite number within `range` (the documentation writes its ends as whole numbers);
    /// `also` adds a rule with another option, written after the range.
    static func number(_ key: String, _ path: WritableKeyPath<KioskConfig, Double> & Sendable,
                       _ range: ClosedRange<Double>, _ unit: String, remark: String? = nil,
                       also: (values: String, check: Check)? = nil, flag: String,
                       default defaultValue: String, example: String, _ summary: String) -> ConfigOption {
        let ends = "\(Int(range.lowerBound)) to \(Int(range.upperBound))"
        return ConfigOption(key, values: "\(unit), \(ends)" + (also.map { ", " + $0.values } ?? ""), flag: flag,
                            default: defaultValue, example: example, summary,
                            set: { d, v, key, c throws(ConfigError) in c[keyPath: path] = try d.number(v, key) },
                            check: { c in outOfRange(c[keyPath: path], range, unit, remark) ?? also?.check(c) })
    }

    /// Text; `check` says what is wrong with it, if anything can be.
    static func text(_ key: String, _ path: WritableKeyPath<KioskConfig, String> & Sendable, values: String,
                     flag: String, default defaultValue: String, example: String, _ summary: String,
                     check: Check? = nil) -> ConfigOption {
        ConfigOption(key, values: values, flag: flag, default: defaultValue, example: example, summary,
                     set: { d, v, key, c throws(ConfigError) in c[keyPath: path] = try d.string(v, key) },
                     check: check)
    }

    /// Text that may be left out; "" in the file means "not set" (`KioskConfig.normalize`).
    static func text(_ key: String, _ path: WritableKeyPath<KioskConfig, String?> & Sendable, values: String,
                     flag: String, default defaultValue: String, example: String, _ summary: String,
                     check: Check? = nil) -> ConfigOption {
        ConfigOption(key, values: values, flag: flag, default: defaultValue, example: example, summary,
                     set: { d, v, key, c throws(ConfigError) in c[keyPath: path] = try d.string(v, key) },
                     check: check)
    }

    static func textList(_ key: String, _ path: WritableKeyPath<KioskConfig, [String]> & Sendable, values: String,
                         flag: String, default defaultValue: String, example: String, _ summary: String,
                         check: Check? = nil) -> ConfigOption {
        ConfigOption(key, values: values, flag: flag, default: defaultValue, example: example, summary,
                     set: { d, v, key, c throws(ConfigError) in c[keyPath: path] = try d.strings(v, key) },
                     check: check)
    }

    /// A key of each `[[schedule.period]]`: documented here, read with its period.
    static func periodKey(_ name: String, values: String, note: String, example: String, _ summary: String) -> ConfigOption {
        ConfigOption("schedule.period." + name, values: values, flag: nil, default: nil, note: note,
                     example: example, summary, set: nil)
    }

    /// A key of each `[[source]]`: documented here, read with its source (`ConfigDecoder.sources`).
    static func sourceKey(_ name: String, values: String, note: String, example: String, _ summary: String) -> ConfigOption {
        ConfigOption("source." + name, values: values, flag: nil, default: nil, note: note,
                     example: example, summary, set: nil)
    }

    /// The words of every range error, for the file and the command line alike.
    static func outOfRange<T: Comparable>(_ value: T, _ range: ClosedRange<T>, _ unit: String, _ remark: String?) -> String? {
        range.contains(value) ? nil
            : "\(value) is out of range (\(range.lowerBound) to \(range.upperBound) \(unit)" + (remark.map { "; " + $0 } ?? "") + ")"
    }
}
