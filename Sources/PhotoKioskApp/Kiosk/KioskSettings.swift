/// The options the remote page may change while the frame runs, kept in the settings file
/// (`SettingsStore`) over config.toml. A change is read by the config file's own decoder and
/// range checks (`ConfigDecoder`, `KioskConfig.problems()`), so a value config.toml would refuse
/// is refused here in the same words: there is one set of rules, not two.
public enum KioskSettings {
    /// Dotted names as in config.toml, in the order the page shows them.
    public static let keys: [String] = [
        "slideshow.interval", "slideshow.order", "slideshow.transition", "slideshow.ken_burns",
        "slideshow.pair_portraits",
        "overlay.clock", "overlay.date_taken", "overlay.caption", "overlay.place",
        "schedule.period", "schedule.wake_minutes",
        "library.sort", "kiosk", "source",
    ]

    /// The values each choice may take, from the enums the parser reads (for the page's menus).
    public static let choices: [(String, [String])] = [
        ("slideshow.order", KioskConfig.SlideshowOrder.allCases.map(\.rawValue)),
        ("slideshow.transition", KioskConfig.Transition.allCases.map(\.rawValue)),
        ("overlay.clock", KioskConfig.OverlayPosition.allCases.map(\.rawValue)),
        ("overlay.date_taken", KioskConfig.OverlayPosition.allCases.map(\.rawValue)),
        ("overlay.caption", KioskConfig.OverlayPosition.allCases.map(\.rawValue)),
        ("overlay.place", KioskConfig.OverlayPosition.allCases.map(\.rawValue)),
        ("library.sort", KioskConfig.Sort.allCases.map(\.rawValue)),
    ]

    /// The dotted names `table` sets, in the order of `keys` (settings are at most one table deep).
    static func dottedKeys(of table: TOMLTable) -> [String] {
        let names = table.entries.flatMap { entry -> [String] in
            if case .table(let inner) = entry.value.kind {
                return inner.entries.map { entry.key + "." + $0.key }
            }
            return [entry.key]
        }
        return names.sorted { (keys.firstIndex(of: $0) ?? keys.count, $0) < (keys.firstIndex(of: $1) ?? keys.count, $1) }
    }

    /// `changes` laid over `held` (the settings file): a table's options are replaced one by one.
    static func merged(_ held: TOMLTable, _ changes: TOMLTable) -> TOMLTable {
        let result = TOMLTable(line: 1, explicitlyDefined: true)
        for entry in held.entries {
            if case .table(let inner) = entry.value.kind {
                let copy = TOMLTable(line: inner.line, explicitlyDefined: true)
                for e in inner.entries { copy.set(e.key, e.value) }
                result.set(entry.key, TOMLValue(kind: .table(copy), line: entry.value.line))
            } else {
                result.set(entry.key, entry.value)
            }
        }
        for entry in changes.entries {
            if case .table(let inner) = entry.value.kind, case .table(let existing)? = result[entry.key]?.kind {
                for e in inner.entries { existing.set(e.key, e.value) }
            } else {
                result.set(entry.key, entry.value)
            }
        }
        return result
    }
}

extension KioskConfig {
    /// This configuration with `settings` (the settings file, or a change from the phone) laid
    /// over it. Only `KioskSettings.keys` may be set; every mistake is reported, as for the file.
    /// - Parameter source: names the settings in error messages (the file's path, "request").
    public func applying(settings: TOMLTable, source: String) throws(ConfigError) -> KioskConfig {
        var mistakes: [ConfigError] = []
        for entry in settings.entries {
            let isTableOfSettings = KioskSettings.keys.contains { $0.hasPrefix(entry.key + ".") }
            if case .table(let inner) = entry.value.kind, isTableOfSettings {
                for e in inner.entries where !KioskSettings.keys.contains(entry.key + "." + e.key) {
                    mistakes.append(Self.notASetting(entry.key + "." + e.key, line: e.value.line, source: source))
                }
            } else if !isTableOfSettings, !KioskSettings.keys.contains(entry.key) {
                mistakes.append(Self.notASetting(entry.key, line: entry.value.line, source: source))
            }
        }
        if let error = ConfigError(collecting: mistakes) { throw error }
        let decoder = ConfigDecoder(file: source)
        var config = decoder.decode(settings, onto: self)
        config.normalize()
        mistakes = decoder.problems
        // The same range checks as the file; a setting can also make a file's value wrong (an
        // interval shorter than transition_duration), which is reported under that option.
        for problem in config.problems() where !mistakes.contains(where: { $0.key == problem.key }) {
            mistakes.append(ConfigError(kind: .invalidValue, file: source, line: decoder.lines[problem.key],
                                        key: problem.key, message: problem.message))
        }
        if let error = ConfigError(collecting: mistakes) { throw error }
        return config
    }

    private static func notASetting(_ key: String, line: Int, source: String) -> ConfigError {
        ConfigError(kind: .unknownKey(suggestion: nil), file: source, line: line, key: key,
                    message: "is not a setting the remote page can change (those are: \(KioskSettings.keys.joined(separator: ", ")))")
    }

    /// The settings' values in this configuration, as the API reports them.
    public var settingsJSON: JSONValue {
        .object([
            ("slideshow", .object([
                ("interval", .number(slideshow.interval)),
                ("order", .string(slideshow.order.rawValue)),
                ("transition", .string(slideshow.transition.rawValue)),
                ("ken_burns", .bool(slideshow.kenBurns)),
                ("pair_portraits", .bool(slideshow.pairPortraits)),
            ])),
            ("overlay", .object([
                ("clock", .string(overlay.clock.rawValue)),
                ("date_taken", .string(overlay.dateTaken.rawValue)),
                ("caption", .string(overlay.caption.rawValue)),
                ("place", .string(overlay.place.rawValue)),
            ])),
            ("schedule", .object([
                ("period", .array(schedule.periods.map { period in
                    .object([
                        ("days", .array(Weekday.allCases.filter(period.days.contains).map { .string($0.abbreviation) })),
                        ("off", .string(period.off.description)),
                        ("on", .string(period.on.description)),
                    ])
                })),
                ("wake_minutes", .integer(Int64(schedule.wakeMinutes))),
            ])),
            ("library", .object([("sort", .string(library.sort.rawValue))])),
            ("kiosk", .bool(kiosk)),
            // The whole list: the page sends it back whole, and the settings file's list then
            // stands in for config.toml's.
            ("source", .array(sources.map { source in
                .object([
                    ("name", .string(source.name)),
                    ("remote", .string(source.remote)),
                    ("interval", .integer(Int64(source.intervalMinutes))),
                    ("quota_mb", .integer(Int64(source.quotaMB))),
                ])
            })),
        ])
    }
}
