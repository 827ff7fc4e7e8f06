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

    /// Every option name as written in the file, by table, for unknown-key suggestions.
    static let knownKeys: [String: [String]] = [
        "": ["log_level", "kiosk", "library", "cache", "display", "input", "slideshow", "overlay", "schedule", "remote", "mqtt"],
        "library": ["folders", "sort", "thumbnail_size", "file_name_captions"],
        "cache": ["dir", "memory_mb", "disk_mb"],
        "display": ["backend", "connector", "mode", "rotation"],
        "input": ["backend", "devices", "calibration"],
        "slideshow": ["idle_timeout", "interval", "order", "transition", "transition_duration",
                      "portrait_fill", "background", "ken_burns", "pair_portraits"],
        "overlay": ["clock", "date_taken", "caption", "place"],
        "schedule": ["blank", "wake_minutes", "period"],
        "schedule.period": ["days", "off", "on"],
        "mqtt": ["url", "username", "password", "password_file", "id", "discovery_prefix", "ca_file"],
        "remote": ["listen", "token", "upload_folder", "max_upload_mb", "reserve_mb"],
    ]
}

/// Parses "#rrggbb" or "#rgb".
func parseHexColor(_ text: String) -> Color? {
    guard text.first == "#" else { return nil }
    var hex = String(text.dropFirst())
    if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
    guard hex.count == 6, let rgb = UInt32(hex, radix: 16) else { return nil }
    return Color(rgb: rgb)
}

func hexString(_ color: Color) -> String {
    let digits = Array("0123456789abcdef")
    var s = "#"
    for c in [color.red, color.green, color.blue] {
        s.append(digits[Int(c >> 4)])
        s.append(digits[Int(c & 15)])
    }
    return s
}


/// Walks the TOML tree in document order, so the first mistake in the file is the one reported.
/// Reads the parsed table into a config. A mistake in one option is kept in `problems` and
/// decoding goes on with the next, so one run reports every mistake.
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
    /// configuration for the phone page's settings (`KioskSettings`).
    func decode(_ root: TOMLTable, onto base: KioskConfig = KioskConfig()) -> KioskConfig {
        var c = base
        for e in root.entries {
            let v = e.value
            do throws(ConfigError) {
            switch e.key {
            case "log_level": c.logLevel = try choice(v, "log_level")
            case "kiosk": c.kiosk = try bool(v, "kiosk")
            case "library":
                options(of: v, in: "library") { e, key throws(ConfigError) in
                    switch e.key {
                    case "folders": c.library.folders = try strings(e.value, key)
                    case "sort": c.library.sort = try choice(e.value, key)
                    case "thumbnail_size": c.library.thumbnailSize = try integer(e.value, key)
                    case "file_name_captions": c.library.fileNameCaptions = try bool(e.value, key)
                    default: throw unknown(e, in: "library")
                    }
                }
            case "cache":
                options(of: v, in: "cache") { e, key throws(ConfigError) in
                    switch e.key {
                    case "dir": c.cache.directory = try string(e.value, key)
                    case "memory_mb": c.cache.memoryMB = try integer(e.value, key)
                    case "disk_mb": c.cache.diskMB = try integer(e.value, key)
                    default: throw unknown(e, in: "cache")
                    }
                }
            case "display":
                options(of: v, in: "display") { e, key throws(ConfigError) in
                    switch e.key {
                    case "backend": c.display.backend = try choice(e.value, key)
                    case "connector": c.display.connector = try string(e.value, key)
                    case "mode":
                        let text = try string(e.value, key)
                        if text.isEmpty || text == "auto" {
                            c.display.mode = nil
                        } else {
                            guard let mode = KioskConfig.DisplayMode(parsing: text) else {
                                throw invalid(e.value, key, "\"\(text)\" is not a mode like \"1920x1080\" (or \"auto\")")
                            }
                            c.display.mode = mode
                        }
                    case "rotation":
                        let degrees = try integer(e.value, key)
                        guard let r = KioskConfig.Rotation(rawValue: degrees) else {
                            throw invalid(e.value, key, "\(degrees) is not one of 0, 90, 180, 270")
                        }
                        c.display.rotation = r
                    default: throw unknown(e, in: "display")
                    }
                }
            case "input":
                options(of: v, in: "input") { e, key throws(ConfigError) in
                    switch e.key {
                    case "backend": c.input.backend = try choice(e.value, key)
                    case "devices": c.input.devices = try strings(e.value, key)
                    case "calibration":
                        let m = try numbers(e.value, key)
                        guard m.isEmpty || m.count == 6 else {
                            throw invalid(e.value, key, "needs exactly 6 numbers (a b c d e f), or [] for the device's own; got \(m.count)")
                        }
                        c.input.calibration = m.isEmpty ? nil : m
                    default: throw unknown(e, in: "input")
                    }
                }
            case "slideshow":
                options(of: v, in: "slideshow") { e, key throws(ConfigError) in
                    switch e.key {
                    case "idle_timeout": c.slideshow.idleTimeout = try number(e.value, key)
                    case "interval": c.slideshow.interval = try number(e.value, key)
                    case "order": c.slideshow.order = try choice(e.value, key)
                    case "transition": c.slideshow.transition = try choice(e.value, key)
                    case "transition_duration": c.slideshow.transitionDuration = try number(e.value, key)
                    case "portrait_fill": c.slideshow.portraitFill = try choice(e.value, key)
                    case "ken_burns": c.slideshow.kenBurns = try bool(e.value, key)
                    case "pair_portraits": c.slideshow.pairPortraits = try bool(e.value, key)
                    case "background":
                        let text = try string(e.value, key)
                        guard let color = parseHexColor(text) else {
                            throw invalid(e.value, key, "\"\(text)\" is not a colour like \"#000000\" or \"#333\"")
                        }
                        c.slideshow.background = color
                    default: throw unknown(e, in: "slideshow")
                    }
                }
            case "overlay":
                options(of: v, in: "overlay") { e, key throws(ConfigError) in
                    switch e.key {
                    case "clock": c.overlay.clock = try choice(e.value, key)
                    case "date_taken": c.overlay.dateTaken = try choice(e.value, key)
                    case "caption": c.overlay.caption = try choice(e.value, key)
                    case "place": c.overlay.place = try choice(e.value, key)
                    default: throw unknown(e, in: "overlay")
                    }
                }
            case "schedule":
                options(of: v, in: "schedule") { e, key throws(ConfigError) in
                    switch e.key {
                    case "blank": c.schedule.blankMethod = try choice(e.value, key)
                    case "wake_minutes": c.schedule.wakeMinutes = try integer(e.value, key)
                    case "period": c.schedule.periods = try periods(e.value, key)
                    default: throw unknown(e, in: "schedule")
                    }
                }
            case "mqtt":
                options(of: v, in: "mqtt") { e, key throws(ConfigError) in
                    switch e.key {
                    case "url": c.mqtt.url = try string(e.value, key)
                    case "username": c.mqtt.username = try string(e.value, key)
                    case "password": c.mqtt.password = try string(e.value, key)
                    case "password_file": c.mqtt.passwordFile = try string(e.value, key)
                    case "id": c.mqtt.id = try string(e.value, key)
                    case "discovery_prefix": c.mqtt.discoveryPrefix = try string(e.value, key)
                    case "ca_file": c.mqtt.caFile = try string(e.value, key)
                    default: throw unknown(e, in: "mqtt")
                    }
                }
            case "remote":
                options(of: v, in: "remote") { e, key throws(ConfigError) in
                    switch e.key {
                    case "listen":
                        let text = try string(e.value, key)
                        if text.isEmpty {
                            c.remote.listen = nil
                        } else {
                            guard let address = KioskConfig.ListenAddress(parsing: text) else {
                                throw invalid(e.value, key, "\"\(text)\" \(KioskConfig.ListenAddress.formatHint)")
                            }
                            c.remote.listen = address
                        }
                    case "token": c.remote.token = try string(e.value, key)
                    case "upload_folder": c.remote.uploadFolder = try string(e.value, key)
                    case "max_upload_mb": c.remote.maxUploadMB = try integer(e.value, key)
                    case "reserve_mb": c.remote.reserveMB = try integer(e.value, key)
                    default: throw unknown(e, in: "remote")
                    }
                }
            default:
                throw unknown(e, in: "")
            }
            } catch { problems.append(error) }
        }
        return c
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
        guard case .array(let items) = v.kind else { throw wrongType(v, key, "a list of strings, e.g. [\"a\", \"b\"]") }
        record(v, key)
        var result: [String] = []
        for item in items {
            guard case .string(let s) = item.kind else { throw wrongType(item, key, "a list of strings, e.g. [\"a\", \"b\"]") }
            result.append(s)
        }
        return result
    }

    func numbers(_ v: TOMLValue, _ key: String) throws(ConfigError) -> [Double] {
        guard case .array(let items) = v.kind else { throw wrongType(v, key, "a list of numbers") }
        record(v, key)
        var result: [Double] = []
        for item in items {
            switch item.kind {
            case .integer(let i): result.append(Double(i))
            case .float(let d) where d.isFinite: result.append(d)
            default: throw wrongType(item, key, "a list of numbers")
            }
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
