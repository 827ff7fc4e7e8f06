import Glibc

/// A calendar date and time of day as the wall clock shows it (already in the local time zone).
/// `weekday`: 0 = Sunday ... 6 = Saturday.
public struct CalendarFields: Hashable, Sendable {
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    public var weekday: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, weekday: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.weekday = weekday
    }
}

/// Dates and times written the way the system's locale writes them (LC_TIME, from LANG or
/// LC_ALL; systemd gives services /etc/locale.conf's), through glibc's strftime and
/// nl_langinfo, so no locale data ships with the program.
public struct LocaleTimeFormat: Sendable {
    /// The locale's time of day without seconds: "14:05" or "2:05 PM".
    public let timePattern: String
    /// The locale's short date: "11/26/2026", "26.11.2026".
    public let datePattern: String
    /// The weekday and the short date: "Thursday 11/26/2026".
    public let dayPattern: String

    /// The process's LC_TIME, set from the environment on first use (setlocale is process-wide:
    /// only LC_TIME changes, so number parsing and everything else stay in the C locale).
    public static let system: LocaleTimeFormat = {
        setlocale(LC_TIME, "")
        return LocaleTimeFormat()
    }()

    /// Whatever LC_TIME is now.
    init() {
        let timeFormat = Self.langinfo(nl_item(T_FMT))
        let amString = Self.langinfo(nl_item(AM_STR))
        // A 12-hour locale's T_FMT uses %r or %I (en_US: "%r"); 24-hour ones use %H or %T.
        let twelveHour = !amString.isEmpty && (timeFormat.contains("%r") || timeFormat.contains("%I") || timeFormat.contains("%l"))
        timePattern = twelveHour ? "%l:%M %p" : "%H:%M"
        datePattern = "%x"
        dayPattern = "%A %x"
    }

    public func time(_ fields: CalendarFields) -> String { Self.format(timePattern, fields).trimmingLeadingSpaces }
    public func date(_ fields: CalendarFields) -> String { Self.format(datePattern, fields) }
    public func day(_ fields: CalendarFields) -> String { Self.format(dayPattern, fields) }

    static func langinfo(_ item: nl_item) -> String {
        guard let text = nl_langinfo(item) else { return "" }
        return String(cString: text)
    }

    /// strftime over `fields` (nothing else of `tm` is used by these patterns).
    static func format(_ pattern: String, _ fields: CalendarFields) -> String {
        var parts = tm()
        parts.tm_year = Int32(fields.year - 1900)
        parts.tm_mon = Int32(fields.month - 1)
        parts.tm_mday = Int32(fields.day)
        parts.tm_hour = Int32(fields.hour)
        parts.tm_min = Int32(fields.minute)
        parts.tm_sec = Int32(fields.second)
        parts.tm_wday = Int32(fields.weekday)
        parts.tm_isdst = -1
        var buffer = [CChar](repeating: 0, count: 256)
        let written = strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer[0..<written].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    fileprivate var trimmingLeadingSpaces: String { String(drop(while: { $0 == " " })) }
}
