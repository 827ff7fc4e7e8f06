import Glibc

/// The system's wall clock in the local time zone (TZ, else /etc/localtime): the one place the
/// app reads the calendar time. Everything above takes the result as a value.
public enum LocalWallClock {
    public static func now() -> CalendarFields {
        var seconds = time(nil)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return CalendarFields(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                              hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
                              weekday: Int(parts.tm_wday))
    }
}
