/// A day of the week, Monday first (ISO 8601).
public enum Weekday: Int, CaseIterable, Comparable, Sendable {
    case monday = 0, tuesday, wednesday, thursday, friday, saturday, sunday

    public init?(abbreviation: String) {
        guard let day = Weekday.allCases.first(where: { $0.abbreviation == abbreviation.lowercased() })
        else { return nil }
        self = day
    }

    public var abbreviation: String {
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue]
    }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}

/// A wall-clock time of day, "HH:MM" (00:00 ... 23:59).
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int
}

// In an extension so that Swift still synthesizes the memberwise initializer.
extension TimeOfDay {
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2,
              let h = Int(parts[0]), let m = Int(parts[1]),
              (0...23).contains(h), (0...59).contains(m) else { return nil }
        self.init(hour: h, minute: m)
    }

    public var secondsSinceMidnight: Int { hour * 3600 + minute * 60 }

    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool {
        a.secondsSinceMidnight < b.secondsSinceMidnight
    }

    public var description: String {
        (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }
}

/// One blanking period: on each of `days` the screen goes off at `off` and comes back at `on`;
/// when `on` is earlier than `off` the period runs overnight into the next morning (which need
/// not be one of `days`: "fri 23:00 → 08:00" ends on Saturday morning).
public struct SchedulePeriod: Equatable, Sendable, CustomStringConvertible {
    public var days: Set<Weekday>
    public var off: TimeOfDay
    public var on: TimeOfDay

    public init(days: Set<Weekday> = Set(Weekday.allCases), off: TimeOfDay, on: TimeOfDay) {
        self.days = days
        self.off = off
        self.on = on
    }

    /// The command-line form: "DAYS OFF-ON", e.g. "mon-fri 22:30-07:00", "sat,sun 23:00-09:00",
    /// "daily 22:00-06:30". Returns nil with a reason through `parse(_:)`.
    public init?(parsing text: String) {
        guard case .success(let period) = Self.parse(text) else { return nil }
        self = period
    }

    public static func parse(_ text: String) -> Result<SchedulePeriod, ParseProblem> {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2 else {
            return .failure(ParseProblem("expected \"DAYS OFF-ON\" such as \"mon-fri 22:30-07:00\", got \"\(text)\""))
        }
        let days: Set<Weekday>
        switch parseDays(String(words[0])) {
        case .success(let d): days = d
        case .failure(let p): return .failure(p)
        }
        let times = words[1].split(separator: "-", omittingEmptySubsequences: false)
        guard times.count == 2, let off = TimeOfDay(parsing: String(times[0])),
              let on = TimeOfDay(parsing: String(times[1])) else {
            return .failure(ParseProblem("expected times \"HH:MM-HH:MM\" (off-on), got \"\(words[1])\""))
        }
        guard off != on else { return .failure(ParseProblem("off and on are both \(off)")) }
        return .success(SchedulePeriod(days: days, off: off, on: on))
    }

    /// "mon-fri", "sat,sun", "mon,wed-fri", "daily".
    static func parseDays(_ text: String) -> Result<Set<Weekday>, ParseProblem> {
        if text.lowercased() == "daily" { return .success(Set(Weekday.allCases)) }
        var days: Set<Weekday> = []
        for item in text.split(separator: ",") {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(ends.count), let first = Weekday(abbreviation: String(ends[0])),
                  let last = Weekday(abbreviation: String(ends[ends.count - 1])) else {
                return .failure(ParseProblem("\"\(item)\" is not a day or day range (mon, tue, ... sun, e.g. mon-fri)"))
            }
            // A range may wrap over the weekend: "fri-mon".
            var day = first
            while true {
                days.insert(day)
                if day == last { break }
                day = Weekday(rawValue: (day.rawValue + 1) % 7)!
            }
        }
        return .success(days)
    }

    public var description: String {
        let names = Weekday.allCases.filter(days.contains).map(\.abbreviation).joined(separator: ",")
        return "\(names) \(off)-\(on)"
    }

    public struct ParseProblem: Error, Equatable, Sendable {
        public var message: String
        public init(_ message: String) { self.message = message }
    }
}
