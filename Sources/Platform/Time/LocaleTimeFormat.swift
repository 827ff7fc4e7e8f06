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

/// Dates and times written the way a locale writes them, through glibc's strftime_l and
/// nl_langinfo_l (LC_TIME only; the process's own locale is left alone), so no locale data ships
/// with the program. The system's locale comes from LC_ALL, LC_TIME or LANG (systemd gives
/// services /etc/locale.conf's).
public final class LocaleTimeFormat: @unchecked Sendable {
    /// The locale's time of day without seconds: "14:05" (de_DE, C) or "2:05 PM" (en_US).
    public let timePattern: String
    /// The locale's short date with a four-digit year: "11/26/2026" (en_US, C), "26.11.2026" (de_DE).
    public let datePattern: String
    /// The weekday and the short date: "Thursday 11/26/2026", "Donnerstag 26.11.2026".
    public let dayPattern: String
    /// Immutable once made; glibc's *_l functions only read it.
    private let locale: locale_t

    /// The environment's LC_TIME; the C locale when that names one not installed.
    public static let system = LocaleTimeFormat(named: "") ?? LocaleTimeFormat(named: "C")!

    /// `name`: "de_DE.UTF-8", "C", or "" for the environment's. Nil when the locale is not installed.
    public init?(named name: String) {
        guard let locale = newlocale(LC_TIME_MASK, name, nil) else { return nil }
        self.locale = locale
        let timeFormat = Self.langinfo(nl_item(T_FMT), locale)
        let dateFormat = Self.langinfo(nl_item(D_FMT), locale)
        let amString = Self.langinfo(nl_item(AM_STR), locale)
        // A 12-hour locale's T_FMT uses %r or %I (en_US: "%r"); 24-hour ones use %H or %T.
        let twelveHour = !amString.isEmpty && ["%r", "%I", "%l"].contains(where: timeFormat.contains)
        timePattern = twelveHour ? "%l:%M %p" : "%H:%M"
        // C's "%m/%d/%y" would say "08/14/23": the year in full reads unambiguously.
        let date = dateFormat.isEmpty ? "%x" : String(dateFormat.split(separator: "%y", omittingEmptySubsequences: false).joined(separator: "%Y"))
        datePattern = date
        dayPattern = "%A " + date
    }

    deinit { freelocale(locale) }

    public func time(_ fields: CalendarFields) -> String { String(format(timePattern, fields).drop(while: { $0 == " " })) }
    public func date(_ fields: CalendarFields) -> String { format(datePattern, fields) }
    public func day(_ fields: CalendarFields) -> String { format(dayPattern, fields) }

    private static func langinfo(_ item: nl_item, _ locale: locale_t) -> String {
        guard let text = nl_langinfo_l(item, locale) else { return "" }
        return String(cString: text)
    }

    /// strftime over `fields` (nothing else of `tm` is used by these patterns).
    private func format(_ pattern: String, _ fields: CalendarFields) -> String {
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
        let written = strftime_l(&buffer, buffer.count, pattern, &parts, locale)
        return String(decoding: buffer[0..<written].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
